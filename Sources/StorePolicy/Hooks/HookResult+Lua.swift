import LuaBridge

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
