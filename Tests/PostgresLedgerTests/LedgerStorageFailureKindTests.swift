import Foundation
import PostgresLedger
import StoreCore
import SQLiteLedger
import Testing

/// A storage failure keeps its kind, on both storages, so the ledger decides from it.
@Suite struct LedgerStorageFailureKindTests {
    @Test("a second customer given a token another holds is a unique violation of customer(app_account_token)",
          arguments: LedgerBackend.available)
    func duplicateTokenIsAUniqueViolation(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let token = "3f2c7e1a-5b4d-4c3e-9a8f-1e2d3c4b5a69"
        try ledger.registerCustomer(id: "ana", appAccountToken: token)
        try ledger.registerCustomer(id: "bo")
        let thrown = #expect(throws: (any Error).self) {
            try ledger.storage.write { try $0.setAppAccountToken(token, customerID: "bo") }
        }
        let failure = LedgerStorageFailure(try #require(thrown))
        #expect(failure.kind == .uniqueViolation(LedgerStorageFailure.UniqueKey(table: "customer", columns: ["app_account_token"])))
        #expect(!failure.isTransient)
        #expect(failure.underlyingError != nil, "the storage's own error is kept beneath")
        #expect(try ledger.customer(id: "bo")?.appAccountToken == nil)
    }

    @Test("a lost PostgreSQL connection is transient; a refused statement is permanent")
    func postgresKinds() {
        let lost = PostgresError(kind: .connection, sqlState: nil, message: "server closed the connection unexpectedly", sql: nil)
        #expect(LedgerStorageFailure(lost).kind == .transient)
        let deadlock = PostgresError(kind: .server, sqlState: PostgresSQLState(rawValue: "40P01"), message: "deadlock detected", sql: nil)
        #expect(LedgerStorageFailure(deadlock).isTransient)
        let syntax = PostgresError(kind: .server, sqlState: .syntaxError, message: "m", sql: "SELEC 1")
        #expect(LedgerStorageFailure(syntax).kind == .permanent)
        let unique = PostgresError(kind: .server, sqlState: .uniqueViolation, message: "duplicate key value violates unique constraint",
                                   sql: nil, detail: "Key (customer_id, name)=(ana, x) already exists.", table: "event_name")
        #expect(LedgerStorageFailure(unique).kind
            == .uniqueViolation(LedgerStorageFailure.UniqueKey(table: "event_name", columns: ["customer_id", "name"])))
    }

    @Test("SQLite's unique and primary key refusals name their key; a busy file is transient")
    func sqliteKinds() {
        let unique = SQLiteError(extendedResultCode: .uniqueConstraint, message: "UNIQUE constraint failed: customer.app_account_token")
        #expect(LedgerStorageFailure(unique).kind
            == .uniqueViolation(LedgerStorageFailure.UniqueKey(table: "customer", columns: ["app_account_token"])))
        let primary = SQLiteError(extendedResultCode: .primaryKeyConstraint, message: "UNIQUE constraint failed: grant.transaction_id, grant.position")
        #expect(LedgerStorageFailure(primary).kind
            == .uniqueViolation(LedgerStorageFailure.UniqueKey(table: "grant", columns: ["transaction_id", "position"])))
        #expect(LedgerStorageFailure(SQLiteError(extendedResultCode: .busy, message: "database is locked")).kind == .transient)
        #expect(LedgerStorageFailure(SQLiteError(extendedResultCode: .constraint, message: "CHECK constraint failed: x")).kind == .permanent)
    }
}
