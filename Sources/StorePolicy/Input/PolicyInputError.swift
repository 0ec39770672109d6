import Foundation

/// Why JSON input — a policy context, a hook request or a journey — cannot be read.
///
/// Paths name the value at fault as `customer.balances.credit` or `steps[3].quantity`
/// (list positions count from 0); an empty path is the top level.
public enum PolicyInputError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The bytes are not JSON: where (line and column from 1, the column in bytes) and why.
    case malformed(line: Int, column: Int, reason: String)
    /// Lists and objects nest deeper than `limit` levels, first at that line and column.
    case tooDeep(line: Int, column: Int, limit: Int)
    /// The object at `path` has the same field twice.
    case duplicateField(path: String, field: String)
    /// The object at `path` has a field it does not take; `known` are the fields it takes.
    case unknownField(path: String, field: String, known: [String])
    /// The value at `path` is not what the field takes.
    case invalidValue(path: String, reason: String)

    /// One line naming where the problem is and what was expected.
    public var description: String {
        switch self {
        case let .malformed(line, column, reason):
            return "not JSON: line \(line), column \(column): \(reason)"
        case let .tooDeep(line, column, limit):
            return "refused: line \(line), column \(column): lists and objects nest deeper than \(limit) levels"
        case let .duplicateField(path, field):
            return Self.located("field '\(field)' appears twice", at: path)
        case let .unknownField(path, field, known):
            let hint = NearestName.nearest(to: field, in: known).map { "did you mean '\($0)'?" }
                ?? "known fields: " + known.joined(separator: ", ")
            return path.isEmpty ? "unknown field '\(field)' at the top level; \(hint)" : "\(path): unknown field '\(field)'; \(hint)"
        case let .invalidValue(path, reason):
            return path.isEmpty ? reason : "\(path): \(reason)"
        }
    }

    /// The same line as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// `text` after its path, or followed by "at the top level" when the path is empty.
    private static func located(_ text: String, at path: String) -> String {
        path.isEmpty ? "\(text) at the top level" : "\(path): \(text)"
    }
}
