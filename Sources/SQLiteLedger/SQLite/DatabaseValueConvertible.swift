/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// Reading is strict: an integer column does not read as a `String`, text does not read as an
/// `Int`, and `NULL` reads only as an `Optional`. A mismatch is an ``SQLiteError`` with code
/// ``SQLiteResultCode/mismatch``.
public protocol DatabaseValueConvertible {
    /// The value to store.
    var databaseValue: DatabaseValue { get }

    /// Converts a stored value back, or returns `nil` when the stored value has another type.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }

    /// Any stored value, unchanged.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Int64: DatabaseValueConvertible {
    /// An integer value.
    public var databaseValue: DatabaseValue { .integer(self) }

    /// Reads an integer.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        if case .integer(let integer) = value { return integer }
        return nil
    }
}

extension Int: DatabaseValueConvertible {
    /// An integer value.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }

    /// Reads an integer that fits in `Int`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        if case .integer(let integer) = value { return Int(exactly: integer) }
        return nil
    }
}

extension Int32: DatabaseValueConvertible {
    /// An integer value.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }

    /// Reads an integer that fits in `Int32`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? {
        if case .integer(let integer) = value { return Int32(exactly: integer) }
        return nil
    }
}

extension Bool: DatabaseValueConvertible {
    /// `1` for true, `0` for false.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }

    /// Reads the integers `0` and `1`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        switch value {
        case .integer(0): false
        case .integer(1): true
        default: nil
        }
    }
}

extension Double: DatabaseValueConvertible {
    /// A real value.
    public var databaseValue: DatabaseValue { .real(self) }

    /// Reads a real, or an integer that a `Double` represents exactly.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let real): real
        case .integer(let integer): Double(exactly: integer)
        default: nil
        }
    }
}

extension String: DatabaseValueConvertible {
    /// A text value.
    public var databaseValue: DatabaseValue { .text(self) }

    /// Reads text.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
    /// A blob value.
    public var databaseValue: DatabaseValue { .blob(self) }

    /// Reads a blob.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? {
        if case .blob(let bytes) = value { return bytes }
        return nil
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// The wrapped value, or `NULL`.
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }

    /// Reads `NULL` as `nil`, anything else as the wrapped type.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}
