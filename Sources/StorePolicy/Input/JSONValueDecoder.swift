/// Decodes `Decodable` values from a parsed ``JSONValue``, with errors that say where and what
/// was expected: "expected a whole number, found 1.5", "missing field 'product'".
///
/// Whole numbers must be whole and fit the requested type, numbers must be finite; fields
/// are listed in the order written.
struct JSONValueDecoder: Decoder {
    /// The value being decoded.
    let value: JSONValue
    /// Where that value is.
    let codingPath: [any CodingKey]
    /// Nothing: the input's types need no options.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes a `Value` from the whole of `value`.
    static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try Value(from: JSONValueDecoder(value: value, codingPath: []))
    }

    /// The fields of an object.
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else { throw mismatch(Key.self, expected: "an object") }
        return KeyedDecodingContainer(JSONKeyedContainer<Key>(fields: fields, codingPath: codingPath))
    }

    /// The items of a list.
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([JSONValue].self, expected: "a list") }
        return JSONUnkeyedContainer(items: items, codingPath: codingPath)
    }

    /// The value itself.
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONSingleValueContainer(value: value, codingPath: codingPath)
    }

    /// The error for a value of another kind than `expected`; null is a missing value.
    func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.shortDescription)")
        if case .null = value { return .valueNotFound(type, context) }
        return .typeMismatch(type, context)
    }
}

extension JSONValueDecoder {
    /// `true` or `false`.
    func boolean() throws -> Bool {
        guard case .boolean(let flag) = value else { throw mismatch(Bool.self, expected: "true or false") }
        return flag
    }

    /// A string.
    func string() throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, expected: "a string") }
        return text
    }

    /// A whole number that fits `Integer`, written as digits or as a number whose value is
    /// whole (`1e3`, `2.0`).
    func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        guard case .number(let text) = value else { throw mismatch(Integer.self, expected: "a whole number") }
        if let exact = Integer(text) { return exact }
        let approximate = Double(text) ?? .nan
        if approximate.isFinite, approximate.rounded() == approximate, let whole = Integer(exactly: approximate) { return whole }
        let expected = approximate.isFinite && approximate.rounded() != approximate
            ? "a whole number" : "a whole number from \(Integer.min) to \(Integer.max)"
        throw mismatch(Integer.self, expected: expected)
    }

    /// A finite number that `Number` can hold.
    func floatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ type: Number.Type) throws -> Number {
        guard case .number(let text) = value else { throw mismatch(Number.self, expected: "a number") }
        guard let number = Number(text), number.isFinite else {
            throw mismatch(Number.self, expected: "a number from \(-Number.greatestFiniteMagnitude) to \(Number.greatestFiniteMagnitude)")
        }
        return number
    }
}
