/// A ``JSONValueDecoder``'s object: its fields by name, listed in the order written.
struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// Where the object is.
    let codingPath: [any CodingKey]
    /// The fields `Key` can name, in the order written.
    let allKeys: [Key]
    /// The fields' values by name.
    private let values: [String: JSONValue]

    /// The container of an object's fields (each name once, as the parser ensures).
    init(fields: [(name: String, value: JSONValue)], codingPath: [any CodingKey]) {
        self.codingPath = codingPath
        allKeys = fields.compactMap { Key(stringValue: $0.name) }
        values = Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the object has the field.
    func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

    /// Whether the field is `null`.
    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try field(key).value { return true }
        return false
    }

    /// `true` or `false`.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try field(key).boolean() }
    /// A string.
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try field(key).string() }
    /// A finite number.
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try field(key).floatingPoint(type) }
    /// A finite number a `Float` holds.
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try field(key).floatingPoint(type) }
    /// A whole number that fits.
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try field(key).integer(type) }
    /// A whole number that fits.
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try field(key).integer(type) }
    /// A whole number that fits.
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try field(key).integer(type) }
    /// A whole number that fits.
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try field(key).integer(type) }
    /// A whole number that fits.
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try field(key).integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try field(key).integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try field(key).integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try field(key).integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try field(key).integer(type) }
    /// A whole number that fits.
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try field(key).integer(type) }
    /// Any other decodable type, from the field.
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { try Value(from: field(key)) }

    /// The fields of the object in the field.
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try field(key).container(keyedBy: type)
    }

    /// The items of the list in the field.
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try field(key).unkeyedContainer()
    }

    /// A decoder of the field `super`.
    func superDecoder() throws -> any Decoder { try field(InputKey("super")) }

    /// A decoder of the field.
    func superDecoder(forKey key: Key) throws -> any Decoder { try field(key) }

    /// A decoder of the field `key` names.
    private func field(_ key: some CodingKey) throws -> JSONValueDecoder {
        guard let value = values[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing field '\(key.stringValue)'"))
        }
        return JSONValueDecoder(value: value, codingPath: codingPath + [key])
    }
}
