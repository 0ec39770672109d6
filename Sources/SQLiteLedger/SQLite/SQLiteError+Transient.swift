import CSQLite
import Foundation
import StoreCore

extension SQLiteError: LedgerStorageErrorClassifying {
    /// Whether the failure may pass: the file was busy or locked by another connection, or
    /// the disk was full or could not be read or written for a moment.
    public var isTransient: Bool {
        [SQLiteResultCode.busy, SQLiteResultCode(rawValue: SQLITE_LOCKED), SQLiteResultCode(rawValue: SQLITE_IOERR),
         SQLiteResultCode(rawValue: SQLITE_FULL)].contains(resultCode)
    }

    /// Transient as ``isTransient`` says; a `UNIQUE` or `PRIMARY KEY` refusal with the key
    /// SQLite names (`UNIQUE constraint failed: customer.app_account_token`); otherwise permanent.
    public var ledgerFailureKind: LedgerStorageFailure.Kind {
        if isTransient { return .transient }
        guard [.uniqueConstraint, .primaryKeyConstraint].contains(extendedResultCode), let key = uniqueKey else { return .permanent }
        return .uniqueViolation(key)
    }

    /// The table and columns of SQLite's `… constraint failed: table.a, table.b` message.
    private var uniqueKey: LedgerStorageFailure.UniqueKey? {
        guard let colon = message.range(of: "constraint failed: ") else { return nil }
        let qualified = message[colon.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let parts = qualified.map { $0.split(separator: ".", maxSplits: 1).map(String.init) }
        guard let table = parts.first?.first, parts.allSatisfy({ $0.count == 2 && $0[0] == table }) else { return nil }
        return LedgerStorageFailure.UniqueKey(table: table, columns: parts.map { $0[1] })
    }
}
