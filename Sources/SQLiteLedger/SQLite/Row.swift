/// One result row, copied out of a statement so it stays valid after the statement moves on.
public struct Row: Hashable, Sendable {
    /// The column names, in result order.
    public let columnNames: [String]
    /// The values, in result order.
    public let values: [DatabaseValue]
    /// The SQL that produced the row, named in read errors.
    public let sql: String

    /// Each column name's first index, for reads by name.
    private let columnIndexes: [String: Int]

    /// Creates a row from parallel arrays of names and values.
    public init(columnNames: [String], values: [DatabaseValue], sql: String) {
        self.init(columnNames: columnNames, columnIndexes: Self.columnIndexes(of: columnNames), values: values, sql: sql)
    }

    /// Creates a row whose names' indexes were found once for every row of its result.
    init(columnNames: [String], columnIndexes: [String: Int], values: [DatabaseValue], sql: String) {
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
    /// - Throws: ``SQLiteError`` with ``SQLiteResultCode/range`` when there is no such column,
    ///   or ``SQLiteResultCode/mismatch`` when the stored value is not a `T`.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, at index: Int) throws -> T {
        guard values.indices.contains(index) else {
            throw SQLiteError(
                extendedResultCode: .range,
                message: "no column at index \(index) (the row has \(values.count))",
                sql: sql)
        }
        return try convert(values[index], column: columnNames[index])
    }

    /// Reads the column named `column` as `T`.
    ///
    /// - Throws: ``SQLiteError`` with ``SQLiteResultCode/range`` when there is no such column,
    ///   or ``SQLiteResultCode/mismatch`` when the stored value is not a `T`.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, column: String) throws -> T {
        guard let index = columnIndexes[column] else {
            throw SQLiteError(
                extendedResultCode: .range,
                message: "no column named '\(column)' (the row has \(columnNames.joined(separator: ", ")))",
                sql: sql)
        }
        return try convert(values[index], column: column)
    }

    private func convert<T: DatabaseValueConvertible>(_ value: DatabaseValue, column: String) throws -> T {
        guard let converted = T.fromDatabaseValue(value) else {
            throw SQLiteError(
                extendedResultCode: .mismatch,
                message: "column '\(column)' holds \(value.storageClassName), which does not read as \(T.self)",
                sql: sql)
        }
        return converted
    }
}
