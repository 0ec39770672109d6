/// One statement of the ledger, written once for both databases as a string with
/// interpolations: a value interpolated becomes a bound parameter, never SQL text;
/// `\(sql: …)` splices trusted SQL (column lists, nested statements), and a
/// ``LedgerSQLFragment`` is written by the dialect the statement is rendered in.
///
/// ```swift
/// let query: LedgerSQL = "SELECT id FROM customer WHERE id = \(id) ORDER BY id\(.binaryCollation)"
/// let (text, arguments) = query.rendered(in: .postgres)   // "… WHERE id = $1 ORDER BY id COLLATE "C"", [.text(id)]
/// ```
public struct LedgerSQL: Sendable, ExpressibleByStringInterpolation {
    fileprivate enum Segment: Sendable {
        case text(String)
        case argument(LedgerSQLValue?)
        case fragment(LedgerSQLFragment)
    }

    fileprivate var segments: [Segment]

    /// A statement without parameters.
    public init(stringLiteral value: String) {
        segments = [.text(value)]
    }

    /// A statement built from its interpolations.
    public init(stringInterpolation: StringInterpolation) {
        segments = stringInterpolation.segments
    }

    /// The statement's text in `dialect`, its parameters numbered from 1 in the order they were
    /// interpolated, and the values bound to them.
    public func rendered(in dialect: LedgerSQLDialect) -> (sql: String, arguments: [LedgerSQLValue?]) {
        var sql = ""
        var arguments: [LedgerSQLValue?] = []
        for segment in segments {
            switch segment {
            case .text(let text): sql += text
            case .argument(let value):
                arguments.append(value)
                sql += dialect.placeholder(arguments.count)
            case .fragment(let fragment): sql += dialect.text(of: fragment)
            }
        }
        return (sql, arguments)
    }

    /// How a ``LedgerSQL`` statement collects its literal text, parameters and fragments.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var segments: [Segment] = []

        /// Makes room for the pieces to come.
        public init(literalCapacity: Int, interpolationCount: Int) {
            segments.reserveCapacity(2 * interpolationCount + 1)
        }

        /// SQL text written in the literal.
        public mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            segments.append(.text(literal))
        }

        /// A parameter; `nil` binds `NULL`.
        public mutating func appendInterpolation(_ value: LedgerSQLValue?) {
            segments.append(.argument(value))
        }

        /// A text parameter; `nil` binds `NULL`.
        public mutating func appendInterpolation(_ value: String?) {
            segments.append(.argument(value.map(LedgerSQLValue.text)))
        }

        /// An integer parameter; `nil` binds `NULL`.
        public mutating func appendInterpolation(_ value: Int64?) {
            segments.append(.argument(value.map(LedgerSQLValue.integer)))
        }

        /// An integer parameter; `nil` binds `NULL`.
        public mutating func appendInterpolation(_ value: Int?) {
            segments.append(.argument(value.map { .integer(Int64($0)) }))
        }

        /// A boolean parameter; `nil` binds `NULL`.
        public mutating func appendInterpolation(_ value: Bool?) {
            segments.append(.argument(value.map(LedgerSQLValue.boolean)))
        }

        /// What the dialect writes for `fragment`.
        public mutating func appendInterpolation(_ fragment: LedgerSQLFragment) {
            segments.append(.fragment(fragment))
        }

        /// Trusted SQL text, written as it is: column lists and names, never a value.
        public mutating func appendInterpolation(sql text: String) {
            segments.append(.text(text))
        }

        /// Another statement, its parameters and fragments kept.
        public mutating func appendInterpolation(sql statement: LedgerSQL) {
            segments.append(contentsOf: statement.segments)
        }
    }
}

extension LedgerSQL {
    /// The statements joined by `separator` (trusted SQL text), their parameters kept in order.
    public static func joined(_ statements: [LedgerSQL], separator: String) -> LedgerSQL {
        var joined = LedgerSQL(stringLiteral: "")
        for (index, statement) in statements.enumerated() {
            if index > 0 { joined.segments.append(.text(separator)) }
            joined.segments.append(contentsOf: statement.segments)
        }
        return joined
    }
}
