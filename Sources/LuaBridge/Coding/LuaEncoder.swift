import CLua
import Foundation

/// Pushes `Encodable` values onto a Lua stack as Lua values, field by field through the C API.
///
/// Structs and dictionaries become tables with snake_case keys (`displayName` →
/// `display_name`), arrays become sequences, optionals that are nil are left out,
/// numbers keep their kind (integers stay integers), and dates are whole epoch seconds.
public final class LuaEncoder {
    private let keyStyle = LuaKeyStyle()

    /// Creates an encoder. An encoder remembers its key conversions; keep one per state.
    public init() {}

    /// Pushes `value` onto `stack` as exactly one Lua value.
    public func push<Value: Encodable>(_ value: Value, onto stack: LuaStack) throws(LuaError) {
        let base = stack.top
        let encoder = LuaValueEncoder(stack: stack, keyStyle: keyStyle, codingPath: [])
        do {
            try value.encode(to: encoder)
        } catch let error as LuaError {
            stack.setTop(base)
            throw error
        } catch {
            stack.setTop(base)
            throw LuaError(kind: .badResult, message: "cannot encode \(Value.self): \(error)")
        }
        if stack.top == base {
            stack.pushTable()
        } else {
            stack.setTop(base + 1)
        }
    }
}

/// The `Encoder` handed to `encode(to:)`: its single container pushes one value at the
/// position it was created for.
struct LuaValueEncoder: Encoder {
    let stack: LuaStack
    let keyStyle: LuaKeyStyle
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        _ = stack.reserve(4)
        stack.pushTable()
        return KeyedEncodingContainer(LuaKeyedEncoding<Key>(encoder: self, table: stack.top))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = stack.reserve(4)
        stack.pushTable()
        return LuaUnkeyedEncoding(encoder: self, table: stack.top)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        LuaSingleValueEncoding(encoder: self)
    }

    /// Encodes `value` and leaves exactly one Lua value on top of the stack.
    func pushNested<Value: Encodable>(_ value: Value, key: (any CodingKey)?) throws {
        let base = stack.top
        let nested = LuaValueEncoder(stack: stack, keyStyle: keyStyle, codingPath: codingPath + (key.map { [$0] } ?? []))
        if let dictionary = value as? any LuaKeyedByString {
            try dictionary.pushEntries(with: nested)
        } else {
            try value.encode(to: nested)
        }
        if stack.top == base {
            stack.pushTable()
        } else {
            stack.setTop(base + 1)
        }
    }
}

/// Dictionaries keyed by strings: their keys are data (product ids, group ids), so they are
/// kept as they are rather than converted to snake_case like property names.
private protocol LuaKeyedByString {
    func pushEntries(with encoder: LuaValueEncoder) throws
}

extension Dictionary: LuaKeyedByString where Key == String, Value: Encodable {
    fileprivate func pushEntries(with encoder: LuaValueEncoder) throws {
        let stack = encoder.stack
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: count)
        let table = stack.top
        for (key, value) in self {
            stack.push(key)
            if !pushPrimitive(value, on: stack) {
                try encoder.pushNested(value, key: nil)
            }
            stack.setPair(of: table)
        }
    }
}

/// Values that push themselves without going through the generic machinery.
private func pushPrimitive(_ value: any Encodable, on stack: LuaStack) -> Bool {
    switch value {
    case let value as String: stack.push(value)
    case let value as Bool: stack.push(value)
    case let value as Int: stack.push(value)
    case let value as Int64: stack.push(value)
    case let value as Int32: stack.push(Int(value))
    case let value as UInt32: stack.push(Int(value))
    case let value as Double: stack.push(value)
    case let value as LuaValue: stack.push(value)
    case let value as Date: stack.push(Int64(value.timeIntervalSince1970.rounded(.down)))
    default: return false
    }
    return true
}

private struct LuaKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: LuaValueEncoder
    let table: Int32
    var codingPath: [any CodingKey] { encoder.codingPath }
    private var stack: LuaStack { encoder.stack }

    init(encoder: LuaValueEncoder, table: Int32) {
        self.encoder = encoder
        self.table = table
    }

    private func store(_ key: Key) {
        stack.push(encoder.keyStyle.luaKey(for: key.stringValue))
        lua_rotate(stack.state, -2, 1)
        lua_rawset(stack.state, table)
    }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws { stack.push(value); store(key) }
    mutating func encode(_ value: String, forKey key: Key) throws { stack.push(value); store(key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { stack.push(value); store(key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { stack.push(Double(value)); store(key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { stack.push(value); store(key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { stack.push(Int(value)); store(key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { stack.push(Int(value)); store(key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { stack.push(Int(value)); store(key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { stack.push(value); store(key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try stack.push(checkedInteger(value, key)); store(key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { stack.push(Int(value)); store(key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { stack.push(Int(value)); store(key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { stack.push(Int(value)); store(key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try stack.push(checkedInteger(value, key)); store(key) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        if !pushPrimitive(value, on: stack) {
            try encoder.pushNested(value, key: key)
        }
        store(key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        stack.pushTable()
        let nested = stack.top
        stack.pushCopy(of: nested)
        store(key)
        return KeyedEncodingContainer(LuaKeyedEncoding<NestedKey>(encoder: encoder, table: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        stack.pushTable()
        let nested = stack.top
        stack.pushCopy(of: nested)
        store(key)
        return LuaUnkeyedEncoding(encoder: encoder, table: nested)
    }

    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

private struct LuaUnkeyedEncoding: UnkeyedEncodingContainer {
    let encoder: LuaValueEncoder
    let table: Int32
    private(set) var count = 0
    var codingPath: [any CodingKey] { encoder.codingPath }
    private var stack: LuaStack { encoder.stack }

    init(encoder: LuaValueEncoder, table: Int32) {
        self.encoder = encoder
        self.table = table
    }

    private mutating func append() {
        count += 1
        lua_rawseti(stack.state, table, lua_Integer(count))
    }

    mutating func encodeNil() throws { stack.pushNil(); append() }
    mutating func encode(_ value: Bool) throws { stack.push(value); append() }
    mutating func encode(_ value: String) throws { stack.push(value); append() }
    mutating func encode(_ value: Double) throws { stack.push(value); append() }
    mutating func encode(_ value: Int) throws { stack.push(value); append() }
    mutating func encode(_ value: Int64) throws { stack.push(value); append() }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        if !pushPrimitive(value, on: stack) {
            try encoder.pushNested(value, key: nil)
        }
        append()
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        stack.pushTable()
        let nested = stack.top
        stack.pushCopy(of: nested)
        append()
        return KeyedEncodingContainer(LuaKeyedEncoding<NestedKey>(encoder: encoder, table: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        stack.pushTable()
        let nested = stack.top
        stack.pushCopy(of: nested)
        append()
        return LuaUnkeyedEncoding(encoder: encoder, table: nested)
    }

    mutating func superEncoder() -> any Encoder { encoder }
}

private struct LuaSingleValueEncoding: SingleValueEncodingContainer {
    let encoder: LuaValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private var stack: LuaStack { encoder.stack }

    mutating func encodeNil() throws { stack.pushNil() }
    mutating func encode(_ value: Bool) throws { stack.push(value) }
    mutating func encode(_ value: String) throws { stack.push(value) }
    mutating func encode(_ value: Double) throws { stack.push(value) }
    mutating func encode(_ value: Float) throws { stack.push(Double(value)) }
    mutating func encode(_ value: Int) throws { stack.push(value) }
    mutating func encode(_ value: Int8) throws { stack.push(Int(value)) }
    mutating func encode(_ value: Int16) throws { stack.push(Int(value)) }
    mutating func encode(_ value: Int32) throws { stack.push(Int(value)) }
    mutating func encode(_ value: Int64) throws { stack.push(value) }
    mutating func encode(_ value: UInt) throws { try stack.push(checkedInteger(value, nil)) }
    mutating func encode(_ value: UInt8) throws { stack.push(Int(value)) }
    mutating func encode(_ value: UInt16) throws { stack.push(Int(value)) }
    mutating func encode(_ value: UInt32) throws { stack.push(Int(value)) }
    mutating func encode(_ value: UInt64) throws { try stack.push(checkedInteger(value, nil)) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        if !pushPrimitive(value, on: stack) {
            try encoder.pushNested(value, key: nil)
        }
    }
}

private func checkedInteger<Value: BinaryInteger>(_ value: Value, _ key: (any CodingKey)?) throws(LuaError) -> Int64 {
    guard let integer = Int64(exactly: value) else {
        throw LuaError(kind: .badResult, message: "\(value) does not fit a Lua integer" + (key.map { " (\($0.stringValue))" } ?? ""))
    }
    return integer
}
