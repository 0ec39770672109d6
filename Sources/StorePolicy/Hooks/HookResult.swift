import LuaBridge
import StoreCore

/// A decision's value as JSON.
public enum HookResult: Sendable, Equatable, Encodable {
    /// `null`.
    case null
    /// `true` / `false`.
    case boolean(Bool)
    /// A string.
    case string(String)
    /// A list of strings.
    case strings([String])
    /// Store buttons: kind → visibility.
    case buttons([String: String])
    /// Grants: `[{"item", "amount"}]`.
    case grants([Grant])
    /// Any value a custom hook returned.
    case value(LuaValue)

    /// Writes the value as plain JSON.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .boolean(let flag): try single.encode(flag)
        case .string(let text): try single.encode(text)
        case .strings(let list): try single.encode(list)
        case .buttons(let buttons): try single.encode(buttons)
        case .grants(let grants): try single.encode(grants)
        case .value(let value): try single.encode(value)
        }
    }
}

extension HookResult {
    /// The result as a Lua value.
    public var luaValue: LuaValue {
        switch self {
        case .null: return .nil
        case .boolean(let flag): return .boolean(flag)
        case .string(let text): return .string(text)
        case .strings(let list): return .table(LuaTable(array: list.map(LuaValue.string)))
        case .buttons(let buttons):
            return .table(LuaTable(hash: Dictionary(uniqueKeysWithValues: buttons.map { (LuaValue.string($0.key), LuaValue.string($0.value)) })))
        case .grants(let grants):
            return .table(LuaTable(array: grants.map {
                .table(LuaTable(hash: [.string("item"): .string($0.item), .string("amount"): .integer(Int64($0.amount))]))
            }))
        case .value(let value): return value
        }
    }
}
