/// A ``JSONValueDecoder``'s list, read item by item.
struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
    /// The items.
    let items: [JSONValue]
    /// Where the list is.
    let codingPath: [any CodingKey]
    /// The position of the next item.
    private(set) var currentIndex = 0

    /// Creates the container of a list.
    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    /// How many items the list has.
    var count: Int? { items.count }
    /// Whether every item has been read.
    var isAtEnd: Bool { currentIndex >= items.count }

    /// Reads the next item when it is `null`.
    mutating func decodeNil() throws -> Bool {
        guard case .null = try peek().value else { return false }
        currentIndex += 1
        return true
    }

    /// `true` or `false`.
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.boolean() } }
    /// A string.
    mutating func decode(_ type: String.Type) throws -> String { try next { try $0.string() } }
    /// A finite number.
    mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.floatingPoint(type) } }
    /// A finite number a `Float` holds.
    mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.floatingPoint(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.integer(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.integer(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.integer(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.integer(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.integer(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.integer(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.integer(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.integer(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.integer(type) } }
    /// A whole number that fits.
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.integer(type) } }
    /// Any other decodable type, from the next item.
    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try next { try Value(from: $0) } }

    /// The fields of the object in the next item.
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next { try $0.container(keyedBy: type) }
    }

    /// The items of the list in the next item.
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next { try $0.unkeyedContainer() }
    }

    /// A decoder of the next item.
    mutating func superDecoder() throws -> any Decoder { try next { $0 } }

    /// The next item, not read yet.
    private func peek() throws -> JSONValueDecoder {
        let key = InputKey(index: currentIndex)
        guard currentIndex < items.count else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: codingPath + [key], debugDescription: "the list has only \(items.count) items"))
        }
        return JSONValueDecoder(value: items[currentIndex], codingPath: codingPath + [key])
    }

    /// Reads the next item with `read`; the position moves on only when it succeeds.
    private mutating func next<Value>(_ read: (JSONValueDecoder) throws -> Value) throws -> Value {
        let value = try read(try peek())
        currentIndex += 1
        return value
    }
}
