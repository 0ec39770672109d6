extension Ledger {
    /// The reconciliation mark of `kind` under `key`, if one was set.
    public func reconciliationMark(_ kind: ReconciliationMark.Kind, key: String) throws -> ReconciliationMark? {
        try reading { try $0.reconciliationMark(kind: kind, key: key) }
    }

    /// Sets the reconciliation mark of `kind` under `key` to `value`, now.
    public func setReconciliationMark(_ kind: ReconciliationMark.Kind, key: String, value: String) throws {
        let mark = ReconciliationMark(key: key, kind: kind, value: value, updatedDate: Self.nowInMilliseconds())
        try writing { try $0.upsertReconciliationMark(mark) }
    }

    /// Every reconciliation mark, by kind then key.
    public func reconciliationMarks() throws -> [ReconciliationMark] {
        try reading { try $0.reconciliationMarks() }
    }
}
