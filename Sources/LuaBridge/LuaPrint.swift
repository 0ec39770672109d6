import CLua

/// Holds the host's print handler for the trampoline.
final class PrintBox {
    let handler: LuaState.PrintHandler
    init(_ handler: @escaping LuaState.PrintHandler) { self.handler = handler }
}

/// `print` for policy code: joins its arguments with tabs, as Lua's print does, without
/// running `__tostring` metamethods, and hands the line to the host.
let printTrampoline: srlua_callback = { state, context in
    guard let state, let context else { return 0 }
    let box = Unmanaged<PrintBox>.fromOpaque(context).takeUnretainedValue()
    box.handler(LuaStack(state).printedLine())
    return 0
}

extension LuaStack {
    /// The stack's values joined with tabs, as Lua's `print` writes them.
    func printedLine() -> String {
        var parts: [String] = []
        for index in 1...max(1, top) where index <= top {
            switch type(at: index) {
            case .string: parts.append(string(at: index) ?? "")
            case .number:
                if let integer = integer(at: index), lua_isinteger(state, index) != 0 {
                    parts.append(String(integer))
                } else {
                    parts.append(String(number(at: index) ?? 0))
                }
            case .boolean: parts.append(bool(at: index) == true ? "true" : "false")
            case .nil: parts.append("nil")
            case let other: parts.append(other.name)
            }
        }
        return parts.joined(separator: "\t")
    }
}
