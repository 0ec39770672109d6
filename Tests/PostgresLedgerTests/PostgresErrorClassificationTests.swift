import PostgresLedger
import Testing

@Suite struct PostgresErrorClassificationTests {
    /// A server error with SQLSTATE `code`.
    private static func serverError(_ code: String) -> PostgresError {
        PostgresError(kind: .server, sqlState: PostgresSQLState(rawValue: code), message: "m", sql: "SELECT 1")
    }

    @Test("serialization failures, deadlocks, connection exceptions and shutdowns are transient",
          arguments: ["40001", "40P01", "08000", "08003", "08006", "57P01", "57P02", "57P03"])
    func transientStates(code: String) {
        #expect(Self.serverError(code).isTransient)
    }

    @Test("syntax errors, constraint violations, protocol violations and other rollbacks are permanent",
          arguments: ["42601", "23505", "23503", "08P01", "40002", "22003", "42P01", "57014"])
    func permanentStates(code: String) {
        #expect(!Self.serverError(code).isTransient)
    }

    @Test("a broken connection is transient whatever SQLSTATE came with it, and a client error is permanent")
    func kindsDecide() {
        #expect(PostgresError(kind: .connection, sqlState: nil, message: "server closed the connection", sql: nil).isTransient)
        #expect(PostgresError(kind: .connection, sqlState: .syntaxError, message: "m", sql: nil).isTransient)
        #expect(!PostgresError(kind: .client, sqlState: nil, message: "m", sql: nil).isTransient)
    }

    @Test("a URL that is neither postgres:// nor postgresql:// is refused without connecting")
    func urlSchemeIsChecked() {
        for url in ["host=127.0.0.1 dbname=x", "mysql://127.0.0.1/x", ""] {
            let error = #expect(throws: PostgresError.self) { try PostgresConnection(url: url) }
            #expect(error?.kind == .client)
        }
        let malformed = #expect(throws: PostgresError.self) { try PostgresConnection(url: "postgresql://127.0.0.1/x?no_such_option=1") }
        #expect(malformed?.kind == .client)
    }

    @Test("a server that refuses the connection is a transient connection error")
    func refusedConnection() {
        let error = #expect(throws: PostgresError.self) {
            try PostgresConnection(url: "postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=2")
        }
        #expect(error?.kind == .connection)
        #expect(error?.isTransient == true)
        #expect(error?.message.isEmpty == false)
    }
}
