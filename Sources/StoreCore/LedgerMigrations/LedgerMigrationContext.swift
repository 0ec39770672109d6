/// Where a ``LedgerMigration`` runs: a connection inside the transaction the migrator opened,
/// taking statements written as ``LedgerSQL`` and rendering them in the connection's dialect.
public struct LedgerMigrationContext {
    /// The SQL of the database being migrated.
    public let dialect: LedgerSQLDialect
    private let run: (LedgerSQL) throws -> [any LedgerRecordRow]

    /// Runs statements on `connection`.
    public init<Connection: LedgerSQLConnection>(_ connection: Connection) {
        dialect = connection.dialect
        run = { statement in try connection.rows(statement).map { $0 } }
    }

    /// Runs `statement` and returns its rows.
    public func rows(_ statement: LedgerSQL) throws -> [any LedgerRecordRow] {
        try run(statement)
    }

    /// Runs `statement`, whose rows nothing reads.
    public func execute(_ statement: LedgerSQL) throws {
        _ = try run(statement)
    }

    /// Creates `tables` with their indexes (the only table under `name`, while a step rebuilds it).
    public func create(_ tables: [LedgerTable], named name: String? = nil) throws {
        for statement in tables.flatMap({ $0.createStatements(in: dialect, named: name) }) {
            try execute(LedgerSQL(stringLiteral: statement))
        }
    }

    /// Replaces whatever index on `table` has `index`'s name by `index` as it is described now.
    public func recreate(_ index: LedgerIndex, on table: String) throws {
        try execute(LedgerSQL(stringLiteral: "DROP INDEX IF EXISTS \(index.name)"))
        try execute(LedgerSQL(stringLiteral: index.createStatement(on: table)))
    }

    /// The names of `table`'s columns.
    public func columnNames(of table: String) throws -> [String] {
        let query: LedgerSQL = switch dialect {
        case .sqlite: "SELECT name FROM pragma_table_info('\(sql: table)')"
        case .postgres: "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(table)"
        }
        return try rows(query).map { try $0.text("name") }
    }

    /// Adds `column` to `table` unless a database made since has it already.
    public func addColumnIfMissing(_ column: LedgerColumn, to table: String) throws {
        switch dialect {
        case .postgres:
            try execute("ALTER TABLE \(sql: table) ADD COLUMN IF NOT EXISTS \(sql: column.definition(in: .postgres))")
        case .sqlite:
            guard try !columnNames(of: table).contains(column.name) else { return }
            try execute("ALTER TABLE \(sql: table) ADD COLUMN \(sql: column.definition(in: .sqlite))")
        }
    }
}
