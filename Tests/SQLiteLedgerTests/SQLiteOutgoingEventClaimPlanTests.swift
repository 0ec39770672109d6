import Testing
@testable import SQLiteLedger
@testable import StoreCore
import TestPrerequisites

/// SQLite's plan for delivery's claim of a batch of due events: it walks the index of pending
/// events in the claim's order and stops at the batch's limit, never sorting every pending event.
@Suite struct SQLiteOutgoingEventClaimPlanTests {
    /// The lines of SQLite's query plan for the claim of 64 events on `database`.
    private func claimPlan(on database: Database) throws -> [String] {
        let claim = SQLLedgerTransaction<DatabaseConnection>.outgoingEventClaim(at: 1_000, heldUntil: 31_000, limit: 64)
        return try database.read { connection in
            try connection.rows("EXPLAIN QUERY PLAN \(sql: claim)").map { try $0.decode(String.self, column: "detail") }
        }
    }

    @Test func theClaimWalksThePendingEventsIndexInItsOrderWithoutSorting() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("ledger.sqlite")
        _ = try Ledger(path: path)
        let database = try Database(path: path)
        let index = LedgerSchemaDescription.outgoingEventDue.name

        let plan = try claimPlan(on: database)
        #expect(plan.contains { $0.contains("USING INDEX \(index)") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "the claim sorts: \(plan)")

        // An index by due time alone cannot give the claim's order: SQLite would sort, and the
        // plan says so.
        try database.write {
            try $0.execute("DROP INDEX \(index)")
            try $0.execute("CREATE INDEX \(index) ON outgoing_event (next_attempt_date) WHERE state = 'pending'")
        }
        #expect(try claimPlan(on: database).contains { $0.contains("TEMP B-TREE FOR") })
        withExtendedLifetime(directory) {}
    }
}
