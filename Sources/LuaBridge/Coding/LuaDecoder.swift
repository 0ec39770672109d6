import CLua
import Foundation

/// Reads Lua values into `Decodable` Swift values, directly through the C API.
///
/// The counterpart of ``LuaEncoder``: snake_case table keys fill camelCase properties,
/// sequences fill arrays, missing fields and `nil` fill optionals, epoch seconds fill dates. Reads are raw (no
/// metamethod runs) and a mismatch is a ``LuaError`` of kind `badResult` naming the path,
/// for example `products[2].style: expected a string, got number`.
public final class LuaDecoder {
    private let keyStyle = LuaKeyStyle()

    /// Creates a decoder. A decoder remembers its key conversions; keep one per state.
    public init() {}

    /// How deeply tables may nest in a value read: deeper is a `badResult`, never a Swift
    /// stack overflow, whatever a policy builds.
    public static let maximumDepth = 64

    /// Dates are epoch seconds of at most this magnitude (about the year 292,000), so any
    /// date read also fits in 64 bits of milliseconds; NaN and infinities are refused.
    static let latestDateSeconds = 9.2e15

    /// Reads the value at `index` of `stack` as a `Value`.
    public func decode<Value: Decodable>(_ type: Value.Type, from stack: LuaStack, at index: Int32) throws(LuaError) -> Value {
        if Value.self == LuaValue.self, let value = try stack.value(at: index) as? Value {
            return value
        }
        let base = stack.top
        defer { stack.setTop(base) }
        let readable = stack.pushReadOnlyTarget(of: index) ? stack.top : lua_absindex(stack.state, index)
        let reader = LuaValueDecoder(stack: stack, index: readable, keyStyle: keyStyle, codingPath: [])
        do {
            return try Value(from: reader)
        } catch let error as LuaError {
            throw error
        } catch let error as DecodingError {
            throw LuaError(kind: .badResult, message: Self.describe(error))
        } catch {
            throw LuaError(kind: .badResult, message: "\(error)")
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let position = key.intValue {
                text += "[\(position + 1)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context), .dataCorrupted(let context):
            let location = path(context.codingPath)
            return location.isEmpty ? context.debugDescription : "\(location): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

struct LuaValueDecoder: Decoder {
    let stack: LuaStack
    let index: Int32
    let keyStyle: LuaKeyStyle
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch(_ expected: String, at path: [any CodingKey]? = nil, index: Int32? = nil) -> DecodingError {
        let actual = stack.type(at: index ?? self.index).name
        return .typeMismatch(Any.self, .init(codingPath: path ?? codingPath, debugDescription: "expected \(expected), got \(actual)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard stack.type(at: index) == .table else { throw mismatch("a table") }
        return KeyedDecodingContainer(LuaKeyedDecoding<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard stack.type(at: index) == .table else { throw mismatch("a list") }
        let count = stack.length(at: index)
        var keys = 0
        var stray: String?
        stack.forEachPair(of: index) { key, _ in
            keys += 1
            if stray == nil, stack.integer(at: key).map({ $0 < 1 || $0 > count }) ?? true {
                stray = stack.string(at: key).map { "\"\($0)\"" } ?? stack.type(at: key).name
            }
        }
        if let stray, keys != count {
            throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath,
                debugDescription: "expected a list, got a table with key \(stray)"))
        }
        return LuaUnkeyedDecoding(decoder: self, count: count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        LuaSingleValueDecoding(decoder: self)
    }

    /// Decodes the value on top of the stack, then pops it.
    func decodeTop<Value: Decodable>(_ type: Value.Type, key: any CodingKey) throws -> Value {
        let base = stack.top - 1
        defer { stack.setTop(base) }
        guard codingPath.count < LuaDecoder.maximumDepth, stack.reserve(4) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "nests too deeply"))
        }
        if Value.self == LuaValue.self, let value = try stack.value(at: stack.top) as? Value {
            return value
        }
        if Value.self == Date.self {
            guard let seconds = stack.number(at: stack.top), abs(seconds) < LuaDecoder.latestDateSeconds else {
                throw mismatch("a date in epoch seconds", at: codingPath + [key], index: stack.top)
            }
            return Date(timeIntervalSince1970: seconds) as! Value
        }
        _ = stack.pushReadOnlyTarget(of: stack.top)
        let nested = LuaValueDecoder(stack: stack, index: stack.top, keyStyle: keyStyle, codingPath: codingPath + [key])
        return try Value(from: nested)
    }
}

private struct LuaKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: LuaValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    private var stack: LuaStack { decoder.stack }

    var allKeys: [Key] {
        var keys: [Key] = []
        stack.forEachPair(of: decoder.index) { key, _ in
            if let name = stack.string(at: key), let codingKey = Key(stringValue: name) {
                keys.append(codingKey)
            } else if let position = stack.integer(at: key), let codingKey = Key(intValue: Int(position)) {
                keys.append(codingKey)
            }
        }
        return keys
    }

    /// Pushes the field for `key`: its snake_case name first, then its name as written
    /// (dictionary keys are data and are not converted).
    @discardableResult
    private func pushField(_ key: Key) -> LuaType {
        let converted = decoder.keyStyle.luaKey(for: key.stringValue)
        let type = stack.pushField(named: converted, of: decoder.index)
        guard type == .nil, converted != key.stringValue else { return type }
        stack.setTop(stack.top - 1)
        return stack.pushField(named: key.stringValue, of: decoder.index)
    }

    func contains(_ key: Key) -> Bool {
        defer { stack.setTop(stack.top - 1) }
        return pushField(key) != .nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        defer { stack.setTop(stack.top - 1) }
        return pushField(key) == .nil
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        if pushField(key) == .nil {
            stack.setTop(stack.top - 1)
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath + [key], debugDescription: "missing"))
        }
        return try decoder.decodeTop(type, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "nested containers are read through decode(_:forKey:)"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "nested containers are read through decode(_:forKey:)"))
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

private struct LuaUnkeyedDecoding: UnkeyedDecodingContainer {
    let decoder: LuaValueDecoder
    let total: Int
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { total }
    var isAtEnd: Bool { currentIndex >= total }
    private var stack: LuaStack { decoder.stack }

    init(decoder: LuaValueDecoder, count: Int) {
        self.decoder = decoder
        self.total = count
    }

    private struct PositionKey: CodingKey {
        var stringValue: String { String(intValue ?? 0) }
        var intValue: Int?
        init(_ position: Int) { intValue = position }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    mutating func decodeNil() throws -> Bool {
        let isNil = stack.pushItem(currentIndex + 1, of: decoder.index) == .nil
        stack.setTop(stack.top - 1)
        if isNil { currentIndex += 1 }
        return isNil
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "list ended"))
        }
        stack.pushItem(currentIndex + 1, of: decoder.index)
        let key = PositionKey(currentIndex)
        currentIndex += 1
        return try decoder.decodeTop(type, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "nested containers are read through decode(_:)"))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "nested containers are read through decode(_:)"))
    }

    mutating func superDecoder() throws -> any Decoder { decoder }
}

private struct LuaSingleValueDecoding: SingleValueDecodingContainer {
    let decoder: LuaValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    private var stack: LuaStack { decoder.stack }
    private var index: Int32 { decoder.index }

    func decodeNil() -> Bool { stack.type(at: index) == .nil || stack.type(at: index) == .none }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard let value = stack.bool(at: index) else { throw decoder.mismatch("a boolean") }
        return value
    }

    func decode(_ type: String.Type) throws -> String {
        guard let value = stack.string(at: index) else { throw decoder.mismatch("a string") }
        return value
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard let value = stack.number(at: index) else { throw decoder.mismatch("a number") }
        return value
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    private func integer<Value: FixedWidthInteger>(_ type: Value.Type) throws -> Value {
        guard let value = stack.integer(at: index) else {
            throw decoder.mismatch("an integer")
        }
        guard let exact = Value(exactly: value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(value) is out of range"))
        }
        return exact
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try Value(from: decoder)
    }
}
