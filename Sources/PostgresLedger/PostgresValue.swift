/// A non-null value sent to or read from PostgreSQL; SQL `NULL` is `nil` wherever a value may
/// be missing (`PostgresValue?`).
///
/// Values travel in PostgreSQL's text format. Parameters are typed: an integer is sent as
/// `int8`, a boolean as `bool`, and text untyped, so the server reads it as whatever its place
/// in the statement needs (`text`, `varchar`, or a `$1::timestamptz` cast). Result columns of
/// the integer types (`int2`, `int4`, `int8`) read as ``integer(_:)``, `bool` as
/// ``boolean(_:)``, and every other type as its text form.
public enum PostgresValue: Hashable, Sendable {
    /// Text, in UTF-8. PostgreSQL text cannot hold the NUL character.
    case text(String)
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A boolean.
    case boolean(Bool)

    /// The kind of value, for error messages: "text", "integer" or "boolean".
    public var kindName: String {
        switch self {
        case .text: "text"
        case .integer: "integer"
        case .boolean: "boolean"
        }
    }
}

extension PostgresValue: ExpressibleByStringLiteral {
    /// A text value written as a literal.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension PostgresValue: ExpressibleByIntegerLiteral {
    /// An integer value written as a literal.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension PostgresValue: ExpressibleByBooleanLiteral {
    /// A boolean value written as a literal.
    public init(booleanLiteral value: Bool) {
        self = .boolean(value)
    }
}
