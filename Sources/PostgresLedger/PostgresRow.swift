/// One result row, copied out of libpq's result so it outlives it.
public struct PostgresRow: Hashable, Sendable {
    /// The column names, in result order.
    public let columnNames: [String]
    /// The values, in result order; `nil` is `NULL`.
    public let values: [PostgresValue?]
    /// The SQL that produced the row, named in read errors.
    public let sql: String

    /// Each column name's first index, for reads by name.
    private let columnIndexes: [String: Int]

    /// Creates a row from parallel arrays of names and values.
    public init(columnNames: [String], values: [PostgresValue?], sql: String) {
        self.init(columnNames: columnNames, columnIndexes: Self.columnIndexes(of: columnNames), values: values, sql: sql)
    }

    /// Creates a row whose names' indexes were found once for every row of its result.
    init(columnNames: [String], columnIndexes: [String: Int], values: [PostgresValue?], sql: String) {
        precondition(columnNames.count == values.count, "a row needs one name per value")
        self.columnNames = columnNames
        self.columnIndexes = columnIndexes
        self.values = values
        self.sql = sql
    }

    /// Each of `names`' first index.
    static func columnIndexes(of names: [String]) -> [String: Int] {
        var indexes: [String: Int] = [:]
        for (index, name) in names.enumerated() where indexes[name] == nil {
            indexes[name] = index
        }
        return indexes
    }

    /// Reads the column at `index` as `T`.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/client`` when there is no such
    ///   column, or when its value is not a `T`.
    public func decode<T: PostgresValueConvertible>(_ type: T.Type = T.self, at index: Int) throws(PostgresError) -> T {
        guard values.indices.contains(index) else {
            throw PostgresError(client: "no column at index \(index) (the row has \(values.count))", sql: sql)
        }
        return try convert(values[index], column: columnNames[index])
    }

    /// Reads the column named `column` as `T`; with several columns of that name, the first.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/client`` when there is no such
    ///   column, or when its value is not a `T`.
    public func decode<T: PostgresValueConvertible>(_ type: T.Type = T.self, column: String) throws(PostgresError) -> T {
        guard let index = columnIndexes[column] else {
            throw PostgresError(
                client: "no column named '\(column)' (the row has \(columnNames.joined(separator: ", ")))", sql: sql)
        }
        return try convert(values[index], column: column)
    }

    /// `value` as a `T`, or a client error naming the column.
    private func convert<T: PostgresValueConvertible>(_ value: PostgresValue?, column: String) throws(PostgresError) -> T {
        guard let converted = T.fromPostgresValue(value) else {
            throw PostgresError(
                client: "column '\(column)' holds \(value?.kindName ?? "null"), which does not read as \(T.self)", sql: sql)
        }
        return converted
    }
}
