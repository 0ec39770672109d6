import StoreCore

extension PostgresError: LedgerStorageErrorClassifying {
    /// Transient as ``isTransient`` says; a unique violation with the key the server names (its
    /// table, and the columns of its detail `Key (a, b)=(…) already exists.`); otherwise
    /// permanent.
    public var ledgerFailureKind: LedgerStorageFailure.Kind {
        if isTransient { return .transient }
        guard sqlState == .uniqueViolation, let table, let key = uniqueKeyColumns else { return .permanent }
        return .uniqueViolation(LedgerStorageFailure.UniqueKey(table: table, columns: key))
    }

    /// The columns of the detail's `Key (a, b)=`.
    private var uniqueKeyColumns: [String]? {
        guard let detail, detail.hasPrefix("Key ("), let close = detail.range(of: ")=") else { return nil }
        let list = detail[detail.index(detail.startIndex, offsetBy: 5)..<close.lowerBound]
        return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
