/// A ``JSONValueDecoder``'s single value.
struct JSONSingleValueContainer: SingleValueDecodingContainer {
    /// The value.
    let value: JSONValue
    /// Where it is.
    let codingPath: [any CodingKey]

    /// A decoder of the value, for its conversions.
    private var decoder: JSONValueDecoder { JSONValueDecoder(value: value, codingPath: codingPath) }

    /// Whether the value is `null`.
    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    /// `true` or `false`.
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.boolean() }
    /// A string.
    func decode(_ type: String.Type) throws -> String { try decoder.string() }
    /// A finite number.
    func decode(_ type: Double.Type) throws -> Double { try decoder.floatingPoint(type) }
    /// A finite number a `Float` holds.
    func decode(_ type: Float.Type) throws -> Float { try decoder.floatingPoint(type) }
    /// A whole number that fits.
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    /// A whole number that fits.
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    /// A whole number that fits.
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    /// A whole number that fits.
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    /// A whole number that fits.
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    /// Any other decodable type, from this value.
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try Value(from: decoder) }
}
