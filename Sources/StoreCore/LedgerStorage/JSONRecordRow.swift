import Foundation

/// A row given as a JSON object, its columns by name: what a database returns when it gathers
/// rows into one JSON value, so that several kinds of rows arrive in one statement and still
/// become records through ``LedgerRecords``.
public struct JSONRecordRow: LedgerRecordRow {
    /// The object's members.
    private let members: [String: Any]

    /// A column that is missing, NULL where a value is needed, or of another type.
    public struct ColumnError: Error, CustomStringConvertible {
        /// What was wrong, naming the column.
        public let description: String
    }

    /// The rows of a JSON array of objects, such as PostgreSQL's `json_agg` and SQLite's `json_group_array` give; none for
    /// nil (an aggregate over no rows).
    public static func rows(ofArray text: String?) throws -> [JSONRecordRow] {
        guard let text else { return [] }
        guard let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
            throw ColumnError(description: "the rows are not a JSON array")
        }
        return try array.map { element in
            guard let members = element as? [String: Any] else { throw ColumnError(description: "a row is not a JSON object") }
            return JSONRecordRow(members: members)
        }
    }

    public func text(_ column: String) throws -> String {
        guard let text = try optionalText(column) else { throw ColumnError(description: "column \(column) is NULL") }
        return text
    }

    public func optionalText(_ column: String) throws -> String? {
        try value(column) { $0 as? String }
    }

    public func integer(_ column: String) throws -> Int64 {
        guard let integer = try optionalInteger(column) else { throw ColumnError(description: "column \(column) is NULL") }
        return integer
    }

    public func optionalInteger(_ column: String) throws -> Int64? {
        try value(column) { value in
            guard let number = value as? NSNumber, number.doubleValue == Double(number.int64Value) else { return nil }
            return number.int64Value
        }
    }

    public func flag(_ column: String) throws -> Bool {
        guard let flag = try optionalFlag(column) else { throw ColumnError(description: "column \(column) is NULL") }
        return flag
    }

    public func optionalFlag(_ column: String) throws -> Bool? {
        try value(column) { value in
            if let flag = value as? Bool { return flag }
            // SQLite keeps flags as the integers 0 and 1, and gathers them into JSON as such.
            guard let number = value as? NSNumber, number.doubleValue == 0 || number.doubleValue == 1 else { return nil }
            return number.doubleValue == 1
        }
    }

    public func real(_ column: String) throws -> Double {
        guard let number = try value(column, { ($0 as? NSNumber)?.doubleValue }) else {
            throw ColumnError(description: "column \(column) is NULL")
        }
        return number
    }

    /// The member `column` read by `read`: nil for JSON null, an error when it is missing or
    /// `read` cannot read it.
    private func value<T>(_ column: String, _ read: (Any) -> T?) throws -> T? {
        guard let value = members[column] else { throw ColumnError(description: "there is no column \(column)") }
        if value is NSNull { return nil }
        guard let read = read(value) else { throw ColumnError(description: "column \(column) holds \(value), of another type") }
        return read
    }
}
