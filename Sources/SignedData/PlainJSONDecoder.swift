import Foundation

/// Decodes a value from ``PlainJSON`` nodes exactly as ``SignedPayloadJSON/makeDecoder()``'s
/// `JSONDecoder` would, or declines.
///
/// It handles what App Store payloads need — objects, arrays, strings, integers of every width,
/// `Double`, booleans, nulls, and dates as integer milliseconds — and declines whatever it
/// does not handle the same way: a value of another kind than requested, a missing key, an
/// integer out of range, `Data`, `URL` and `Decimal`. Declining marks the document, even when
/// the `Decodable` type catches the error, so a partial or different result is never used.
struct PlainJSONDecoder: Decoder {
    /// The reason to decline, never shown: the caller decodes the text with `JSONDecoder`
    /// instead, which reports its own errors.
    struct Declined: Error {}

    /// The parsed text and whether decoding it has declined.
    final class Document {
        let json: PlainJSON
        /// Reads a date written as text; nil when dates are integer milliseconds.
        let dateFromText: ((String) -> Date?)?
        var declined = false

        init(_ json: PlainJSON, dateFromText: ((String) -> Date?)? = nil) {
            self.json = json
            self.dateFromText = dateFromText
        }

        /// Marks the document declined and returns the error to throw.
        func decline() -> Declined {
            declined = true
            return Declined()
        }
    }

    let document: Document
    /// The node being decoded.
    let node: Int

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes a `Type` from the whole of `json`, reading dates with `dateFromText` when they
    /// are written as text; nil when declined.
    static func decode<Value: Decodable>(_ type: Value.Type, from json: PlainJSON, dateFromText: ((String) -> Date?)? = nil) -> Value? {
        let document = Document(json, dateFromText: dateFromText)
        guard let value = try? document.decode(Value.self, at: 0), !document.declined else { return nil }
        return value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard document.json.nodes[node].kind == .object else { throw document.decline() }
        return KeyedDecodingContainer(KeyedContainer<Key>(document: document, object: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard document.json.nodes[node].kind == .array else { throw document.decline() }
        return UnkeyedContainer(document: document, array: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(document: document, node: node)
    }
}

extension PlainJSONDecoder.Document {
    /// A value of any `Decodable` type from a node, with `JSONDecoder`'s special cases: dates
    /// as integer milliseconds, as ``SignedPayloadJSON`` writes them, or as text the document
    /// reads; `Data`, `URL` and `Decimal` declined.
    func decode<Value: Decodable>(_ type: Value.Type, at node: Int) throws -> Value {
        if Value.self == Date.self {
            guard let dateFromText else { return Date(millisecondsSince1970: try integer(Int64.self, at: node)) as! Value }
            guard let date = dateFromText(try string(at: node)) else { throw decline() }
            return date as! Value
        }
        if Value.self == Data.self || Value.self == URL.self || Value.self == Decimal.self {
            throw decline()
        }
        return try Value(from: PlainJSONDecoder(document: self, node: node))
    }

    /// Whether a node is `null`.
    func isNull(at node: Int) -> Bool {
        json.nodes[node].kind == .null
    }

    func string(at node: Int) throws -> String {
        guard json.nodes[node].kind == .string else { throw decline() }
        return json.string(at: node)
    }

    func bool(at node: Int) throws -> Bool {
        guard json.nodes[node].kind == .boolean else { throw decline() }
        return json.nodes[node].integer == 1
    }

    func integer<Integer: FixedWidthInteger>(_ type: Integer.Type, at node: Int) throws -> Integer {
        guard json.nodes[node].kind == .integer, let value = Integer(exactly: json.nodes[node].integer) else {
            throw decline()
        }
        return value
    }

    /// A `Double` from an integer, which converts exactly up to 2⁵³ and rounds to the nearest
    /// above, as parsing the same digits as a `Double` does.
    func double(at node: Int) throws -> Double {
        guard json.nodes[node].kind == .integer else { throw decline() }
        return Double(json.nodes[node].integer)
    }
}

extension PlainJSONDecoder {
    /// The members of an object.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let document: Document
        let object: Int

        var codingPath: [any CodingKey] { [] }

        var allKeys: [Key] {
            let nodes = document.json.nodes
            var keys: [Key] = []
            var member = object + 1
            for _ in 0..<nodes[object].integer {
                if let key = Key(stringValue: document.json.string(at: member)) { keys.append(key) }
                member = nodes[member + 1].next
            }
            return keys
        }

        /// The node of the value for `key`, or nil when the object lacks it.
        private func value(for key: Key) -> Int? {
            document.json.member(named: key.stringValue, in: object)
        }

        /// The node of the value for `key`; declines when the object lacks it.
        private func required(_ key: Key) throws -> Int {
            guard let node = value(for: key) else { throw document.decline() }
            return node
        }

        /// The node of the value for `key`, or nil when the object lacks it or it is `null`.
        private func present(_ key: Key) -> Int? {
            guard let node = value(for: key), !document.isNull(at: node) else { return nil }
            return node
        }

        func contains(_ key: Key) -> Bool { value(for: key) != nil }
        func decodeNil(forKey key: Key) throws -> Bool { document.isNull(at: try required(key)) }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try document.bool(at: required(key)) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try document.string(at: required(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try document.double(at: required(key)) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw document.decline() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try document.integer(type, at: required(key)) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try document.integer(type, at: required(key)) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try document.integer(type, at: required(key)) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try document.integer(type, at: required(key)) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try document.integer(type, at: required(key)) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try document.integer(type, at: required(key)) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try document.integer(type, at: required(key)) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try document.integer(type, at: required(key)) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try document.integer(type, at: required(key)) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try document.integer(type, at: required(key)) }
        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
            try document.decode(type, at: required(key))
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map(document.bool(at:)) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map(document.string(at:)) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
            try present(key).map { try document.integer(type, at: $0) }
        }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            try present(key).map { try document.integer(type, at: $0) }
        }
        func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
            try present(key).map { try document.decode(type, at: $0) }
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try PlainJSONDecoder(document: document, node: required(key)).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try PlainJSONDecoder(document: document, node: required(key)).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { throw document.decline() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw document.decline() }
    }

    /// The elements of an array, in order.
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let document: Document
        let count: Int?
        private(set) var currentIndex = 0
        /// The node of the current element.
        private var element: Int

        init(document: Document, array: Int) {
            self.document = document
            count = Int(document.json.nodes[array].integer)
            element = array + 1
        }

        var codingPath: [any CodingKey] { [] }
        var isAtEnd: Bool { currentIndex >= count! }

        /// The node of the current element, moving past it; declines at the end.
        private mutating func advance() throws -> Int {
            guard !isAtEnd else { throw document.decline() }
            let node = element
            element = document.json.nodes[node].next
            currentIndex += 1
            return node
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw document.decline() }
            guard document.isNull(at: element) else { return false }
            _ = try advance()
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try document.bool(at: advance()) }
        mutating func decode(_ type: String.Type) throws -> String { try document.string(at: advance()) }
        mutating func decode(_ type: Double.Type) throws -> Double { try document.double(at: advance()) }
        mutating func decode(_ type: Float.Type) throws -> Float { throw document.decline() }
        mutating func decode(_ type: Int.Type) throws -> Int { try document.integer(type, at: advance()) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try document.integer(type, at: advance()) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try document.integer(type, at: advance()) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try document.integer(type, at: advance()) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try document.integer(type, at: advance()) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try document.integer(type, at: advance()) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try document.integer(type, at: advance()) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try document.integer(type, at: advance()) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try document.integer(type, at: advance()) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try document.integer(type, at: advance()) }
        mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try document.decode(type, at: advance()) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try PlainJSONDecoder(document: document, node: advance()).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try PlainJSONDecoder(document: document, node: advance()).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { throw document.decline() }
    }

    /// One value.
    struct SingleValueContainer: SingleValueDecodingContainer {
        let document: Document
        let node: Int

        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { document.isNull(at: node) }
        func decode(_ type: Bool.Type) throws -> Bool { try document.bool(at: node) }
        func decode(_ type: String.Type) throws -> String { try document.string(at: node) }
        func decode(_ type: Double.Type) throws -> Double { try document.double(at: node) }
        func decode(_ type: Float.Type) throws -> Float { throw document.decline() }
        func decode(_ type: Int.Type) throws -> Int { try document.integer(type, at: node) }
        func decode(_ type: Int8.Type) throws -> Int8 { try document.integer(type, at: node) }
        func decode(_ type: Int16.Type) throws -> Int16 { try document.integer(type, at: node) }
        func decode(_ type: Int32.Type) throws -> Int32 { try document.integer(type, at: node) }
        func decode(_ type: Int64.Type) throws -> Int64 { try document.integer(type, at: node) }
        func decode(_ type: UInt.Type) throws -> UInt { try document.integer(type, at: node) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try document.integer(type, at: node) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try document.integer(type, at: node) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try document.integer(type, at: node) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try document.integer(type, at: node) }
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try document.decode(type, at: node) }
    }
}

/// Decoding of text in the plain JSON subset (``PlainJSON``) outside signed payloads, for a
/// caller whose JSON is written as that subset and whose dates are text.
public enum PlainJSONDecoding {
    /// `Value` decoded from `text` as a `JSONDecoder` whose dates `dateFromText` reads would
    /// decode it; nil when the text is outside the plain subset or the value needs what the
    /// plain decoder declines, and the caller's `JSONDecoder` must decode it instead.
    public static func decode<Value: Decodable>(_ type: Value.Type, from text: String, dateFromText: @escaping (String) -> Date?) -> Value? {
        guard let plain = PlainJSON(parsing: Data(text.utf8)) else { return nil }
        return PlainJSONDecoder.decode(type, from: plain, dateFromText: dateFromText)
    }
}
