import Foundation
import Testing
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

/// Ledger files before the events' numbering kept their events without `event_id`, ordered by
/// SQLite's hidden row id; the migration gives each its row id as its number.
@Suite struct LedgerEventNumberingMigrationTests {
    @Test("a file whose events have no number keeps them, numbered by their row ids, in the same order, and numbers new ones after")
    func unnumberedEventsAreNumbered() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("ledger.sqlite")
        let tie = LedgerFixtures.date(0)
        do {
            let ledger = try Ledger(path: path)
            for name in ["opened", "shown", "closed"] {
                try ledger.recordEvent(customerID: "ada", name: name, at: tie)
            }
            try ledger.recordEvent(customerID: "bo", name: "opened", placement: "home", at: LedgerFixtures.date(-5))
            // The file as schema 7 left it: no event_id, and rows in an order that is not the
            // customers' or the names'.
            try ledger.sqlite.write { connection in
                try connection.execute(script: """
                    CREATE TABLE unnumbered_event (
                        customer_id TEXT NOT NULL REFERENCES customer (id),
                        name TEXT NOT NULL,
                        placement TEXT,
                        occurred_date INTEGER NOT NULL
                    ) STRICT;
                    INSERT INTO unnumbered_event SELECT customer_id, name, placement, occurred_date
                        FROM merchandising_event ORDER BY event_id DESC;
                    DROP TABLE merchandising_event;
                    ALTER TABLE unnumbered_event RENAME TO merchandising_event;
                    CREATE INDEX merchandising_event_by_customer ON merchandising_event (customer_id, name, occurred_date);
                    DROP TABLE reconciliation_mark;
                    DROP TABLE consumption_request;
                    DROP TABLE renewal_extension;
                    DROP TABLE experiment_exposure;
                    DROP TABLE experiment_phase;
                    DROP TABLE outgoing_event;
                    DROP TABLE outgoing_event_state;
                    PRAGMA user_version = 7;
                    """)
            }
        }
        let migrated = try Ledger(path: path)
        #expect(try SQLiteLedgerMigrationHost(database: migrated.sqlite).schemaVersion() == Ledger.schemaVersion)
        let numbered = try migrated.sqlite.read { connection in
            try connection.fetchAll("SELECT event_id, name FROM merchandising_event ORDER BY event_id").map { row in
                "\(try row.decode(Int64.self, column: "event_id")):\(try row.decode(String.self, column: "name"))"
            }
        }
        #expect(numbered == ["1:opened", "2:closed", "3:shown", "4:opened"], "each event numbered by its row id")
        #expect(try migrated.storage.read { try $0.events() }.map { "\($0.customerID):\($0.name)" }
                == ["ada:closed", "ada:shown", "ada:opened", "bo:opened"], "ties of one time ordered by number")
        try migrated.recordEvent(customerID: "ada", name: "shown", at: tie)
        let newest = try migrated.sqlite.read { try $0.fetchValue(Int64.self, "SELECT max(event_id) FROM merchandising_event") }
        #expect(newest == 5)
        #expect(try migrated.eventSummaries(customerID: "ada")["shown"]?.count == 2)
        let indexes = try migrated.sqlite.read { connection in
            try connection.fetchAll("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'merchandising_event'")
                .map { try $0.decode(String.self, column: "name") }
        }
        #expect(indexes.contains("merchandising_event_by_customer"))
    }
}
