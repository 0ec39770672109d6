/// A Swift type that can be read back from a result column.
///
/// Reading is strict: an integer column does not read as a `String`, text does not read as an
/// `Int`, and `NULL` reads only as an `Optional`. A mismatch is a ``PostgresError`` of kind
/// ``PostgresError/Kind/client``.
public protocol PostgresValueConvertible {
    /// The value to send as a parameter, or `nil` for `NULL`.
    var postgresValue: PostgresValue? { get }

    /// Converts a column's value back (`nil` for `NULL`), or returns `nil` when the value has
    /// another type.
    static func fromPostgresValue(_ value: PostgresValue?) -> Self?
}

extension PostgresValue: PostgresValueConvertible {
    /// The value itself.
    public var postgresValue: PostgresValue? { self }

    /// Any non-null value, unchanged.
    public static func fromPostgresValue(_ value: PostgresValue?) -> PostgresValue? { value }
}

extension Int64: PostgresValueConvertible {
    /// An integer value.
    public var postgresValue: PostgresValue? { .integer(self) }

    /// Reads an integer.
    public static func fromPostgresValue(_ value: PostgresValue?) -> Int64? {
        if case .integer(let integer) = value { return integer }
        return nil
    }
}

extension Int: PostgresValueConvertible {
    /// An integer value.
    public var postgresValue: PostgresValue? { .integer(Int64(self)) }

    /// Reads an integer that fits in `Int`.
    public static func fromPostgresValue(_ value: PostgresValue?) -> Int? {
        if case .integer(let integer) = value { return Int(exactly: integer) }
        return nil
    }
}

extension Bool: PostgresValueConvertible {
    /// A boolean value.
    public var postgresValue: PostgresValue? { .boolean(self) }

    /// Reads a boolean.
    public static func fromPostgresValue(_ value: PostgresValue?) -> Bool? {
        if case .boolean(let boolean) = value { return boolean }
        return nil
    }
}

extension String: PostgresValueConvertible {
    /// A text value.
    public var postgresValue: PostgresValue? { .text(self) }

    /// Reads text.
    public static func fromPostgresValue(_ value: PostgresValue?) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Optional: PostgresValueConvertible where Wrapped: PostgresValueConvertible {
    /// The wrapped value, or `NULL`.
    public var postgresValue: PostgresValue? { self?.postgresValue }

    /// Reads `NULL` as `nil`, anything else as the wrapped type.
    public static func fromPostgresValue(_ value: PostgresValue?) -> Wrapped?? {
        guard let value else { return .some(nil) }
        return Wrapped.fromPostgresValue(value).map { .some($0) }
    }
}
