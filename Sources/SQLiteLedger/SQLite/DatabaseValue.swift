/// A value as SQLite stores it: one of its five storage classes.
public enum DatabaseValue: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit floating-point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// The storage class name, for error messages: "null", "integer", "real", "text" or "blob".
    public var storageClassName: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}
