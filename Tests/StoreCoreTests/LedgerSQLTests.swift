import Testing
@testable import StoreCore

/// The ledger's statements are written once and rendered in each database's dialect; values
/// are always bound, never written into the SQL.
@Suite struct LedgerSQLTests {
    @Test("interpolated values become numbered parameters in each dialect, in order, nil as NULL")
    func valuesBecomeParameters() {
        let id = "ana"
        let token: String? = nil
        let statement: LedgerSQL = "UPDATE customer SET app_account_token = \(token), created_date = \(Int64(7)) WHERE id = \(id) AND \(true)"
        let sqlite = statement.rendered(in: .sqlite)
        #expect(sqlite.sql == "UPDATE customer SET app_account_token = ?1, created_date = ?2 WHERE id = ?3 AND ?4")
        #expect(sqlite.arguments == [nil, .integer(7), .text("ana"), .boolean(true)])
        let postgres = statement.rendered(in: .postgres)
        #expect(postgres.sql == "UPDATE customer SET app_account_token = $1, created_date = $2 WHERE id = $3 AND $4")
        #expect(postgres.arguments == sqlite.arguments)
    }

    @Test("a hostile value is a parameter, not SQL")
    func hostileValueStaysAParameter() {
        let hostile = "x'; DROP TABLE customer; --"
        let statement: LedgerSQL = "SELECT id FROM customer WHERE id = \(hostile)"
        let rendered = statement.rendered(in: .sqlite)
        #expect(rendered.sql == "SELECT id FROM customer WHERE id = ?1")
        #expect(rendered.arguments == [.text(hostile)])
    }

    @Test("fragments are written by the dialect: byte order, row locks, JSON aggregation")
    func fragmentsFollowTheDialect() {
        let statement: LedgerSQL = "SELECT \(.jsonArray(columns: ["id", "amount"])) FROM t WHERE k = \(1) ORDER BY id\(.binaryCollation)\(.rowLock)"
        #expect(statement.rendered(in: .sqlite).sql
                == "SELECT json_group_array(json_object('id', id, 'amount', amount)) FROM t WHERE k = ?1 ORDER BY id")
        #expect(statement.rendered(in: .postgres).sql
                == #"SELECT json_agg(json_build_object('id', id, 'amount', amount)) FROM t WHERE k = $1 ORDER BY id COLLATE "C" FOR UPDATE"#)
    }

    @Test("nested and joined statements keep their parameters in order")
    func nestingKeepsParameterOrder() {
        let rows: [LedgerSQL] = [1, 2].map { position in "(\("t"), \(position))" }
        let inner: LedgerSQL = "SELECT \(5)"
        let statement: LedgerSQL = "INSERT INTO g VALUES \(sql: .joined(rows, separator: ", ")); \(sql: inner) \(sql: "-- trusted")"
        let rendered = statement.rendered(in: .postgres)
        #expect(rendered.sql == "INSERT INTO g VALUES ($1, $2), ($3, $4); SELECT $5 -- trusted")
        #expect(rendered.arguments == [.text("t"), .integer(1), .text("t"), .integer(2), .integer(5)])
    }

    @Test("the schema description makes each database's DDL: STRICT integers and row ids on SQLite, bigint, boolean and identities on PostgreSQL")
    func schemaDescriptionRendersPerDialect() {
        let events = LedgerSchemaDescription.merchandisingEvent.createStatements(in: .sqlite)
        #expect(events[0].hasPrefix("CREATE TABLE merchandising_event (\n    event_id INTEGER PRIMARY KEY,\n    customer_id TEXT NOT NULL REFERENCES customer (id),"))
        #expect(events[0].hasSuffix(") STRICT"))
        #expect(events[1] == "CREATE INDEX merchandising_event_by_customer ON merchandising_event (customer_id, name, occurred_date)")
        let postgresEvents = LedgerSchemaDescription.merchandisingEvent.createStatements(in: .postgres)
        #expect(postgresEvents[0].contains("event_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"))
        #expect(!postgresEvents[0].contains("STRICT"))
        let transactions = LedgerSchemaDescription.storeTransaction
        #expect(transactions.createStatements(in: .sqlite)[0].contains("is_upgraded INTEGER NOT NULL CHECK (is_upgraded IN (0, 1))"))
        #expect(transactions.createStatements(in: .postgres)[0].contains("is_upgraded boolean NOT NULL,"))
        #expect(transactions.createStatements(in: .postgres)[3]
                == "CREATE INDEX store_transaction_unfinished ON store_transaction (grant_state) WHERE grant_state = 'unfinished'")
        #expect(Set(LedgerSchemaDescription.tables.map(\.name)).count == LedgerSchemaDescription.tables.count)
    }
}
