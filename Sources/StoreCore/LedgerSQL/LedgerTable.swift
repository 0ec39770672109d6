/// One table of the ledger, described once; each ``LedgerSQLDialect`` makes its own DDL from it
/// (``createStatements(in:named:)``), so a new column is written in one place.
public struct LedgerTable: Sendable {
    /// The table's name.
    public let name: String
    /// Its columns, in order.
    public let columns: [LedgerColumn]
    /// Table constraints, the same SQL on both databases: `PRIMARY KEY (…)`, `FOREIGN KEY …`,
    /// `CHECK (…)`.
    public let constraints: [String]
    /// Its indexes.
    public let indexes: [LedgerIndex]

    /// Describes a table.
    public init(_ name: String, _ columns: [LedgerColumn], constraints: [String] = [], indexes: [LedgerIndex] = []) {
        self.name = name
        self.columns = columns
        self.constraints = constraints
        self.indexes = indexes
    }

    /// The statements creating the table (under `name`, or another name while a migration
    /// rebuilds it) and then its indexes, in `dialect`: SQLite's tables are `STRICT`, with
    /// flags as integers checked to be 0 or 1 and an identity as the row id; PostgreSQL's use
    /// `bigint`, `boolean` and `GENERATED ALWAYS AS IDENTITY`.
    public func createStatements(in dialect: LedgerSQLDialect, named tableName: String? = nil) -> [String] {
        let definitions = columns.map { $0.definition(in: dialect) } + constraints
        let table = "CREATE TABLE \(tableName ?? name) (\n    " + definitions.joined(separator: ",\n    ") + "\n)"
            + (dialect == .sqlite ? " STRICT" : "")
        return [table] + indexes.map { $0.createStatement(on: tableName ?? name) }
    }
}

/// A column of a ``LedgerTable``.
public struct LedgerColumn: Sendable {
    /// What a column holds, which each database names its own way.
    public enum Kind: Sendable {
        /// Text: `TEXT`, `text`.
        case text
        /// A 64-bit integer (dates are epoch milliseconds): `INTEGER`, `bigint`.
        case integer
        /// A flag: `INTEGER` holding 0 or 1, `boolean`.
        case boolean
        /// A number the database gives each new row, the table's primary key: SQLite's row id
        /// (`INTEGER PRIMARY KEY`), PostgreSQL's `bigint GENERATED ALWAYS AS IDENTITY`.
        case identity
    }

    /// The column's name.
    public let name: String
    /// What it holds.
    public let kind: Kind
    /// Whether it may be NULL.
    public let isNullable: Bool
    /// Whether it alone is the primary key.
    public let isPrimaryKey: Bool
    /// Whether its values are unique.
    public let isUnique: Bool
    /// A check on its values, the same SQL on both databases.
    public let check: String?
    /// The column it refers to, as `table (column)`.
    public let references: String?
    /// Its default value, as SQL.
    public let defaultValue: String?

    /// Describes a column.
    public init(_ name: String, _ kind: Kind, nullable: Bool = false, primaryKey: Bool = false, unique: Bool = false,
                check: String? = nil, references: String? = nil, defaultValue: String? = nil) {
        self.name = name
        self.kind = kind
        self.isNullable = nullable
        self.isPrimaryKey = primaryKey
        self.isUnique = unique
        self.check = check
        self.references = references
        self.defaultValue = defaultValue
    }

    /// The column's definition in a `CREATE TABLE`.
    public func definition(in dialect: LedgerSQLDialect) -> String {
        var parts = [name]
        switch (kind, dialect) {
        case (.identity, .sqlite): return "\(name) INTEGER PRIMARY KEY"
        case (.identity, .postgres): return "\(name) bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        case (.text, .sqlite): parts.append("TEXT")
        case (.text, .postgres): parts.append("text")
        case (.integer, .sqlite), (.boolean, .sqlite): parts.append("INTEGER")
        case (.integer, .postgres): parts.append("bigint")
        case (.boolean, .postgres): parts.append("boolean")
        }
        if isPrimaryKey { parts.append("PRIMARY KEY") }
        if !isNullable { parts.append("NOT NULL") }
        if isUnique { parts.append("UNIQUE") }
        if let defaultValue { parts.append("DEFAULT \(defaultValue)") }
        if kind == .boolean, dialect == .sqlite { parts.append("CHECK (\(name) IN (0, 1))") }
        if let check { parts.append("CHECK (\(check))") }
        if let references { parts.append("REFERENCES \(references)") }
        return parts.joined(separator: " ")
    }
}

/// An index of a ``LedgerTable``, the same SQL on both databases.
public struct LedgerIndex: Sendable {
    /// The index's name.
    public let name: String
    /// Its columns, as SQL.
    public let columns: String
    /// The condition of a partial index.
    public let condition: String?
    /// Whether no two rows may hold the same values in its columns.
    public let isUnique: Bool

    /// Describes an index, unique when `unique`.
    public init(_ name: String, on columns: String, where condition: String? = nil, unique: Bool = false) {
        self.name = name
        self.columns = columns
        self.condition = condition
        isUnique = unique
    }

    /// The `CREATE INDEX` (or `CREATE UNIQUE INDEX`) statement, on `table`; with
    /// `ifNotExists`, one that does nothing when an index of that name exists.
    func createStatement(on table: String, ifNotExists: Bool = false) -> String {
        "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(ifNotExists ? "IF NOT EXISTS " : "")\(name) ON \(table) (\(columns))"
            + (condition.map { " WHERE \($0)" } ?? "")
    }
}
