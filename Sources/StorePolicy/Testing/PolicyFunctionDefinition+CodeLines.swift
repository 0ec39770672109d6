import LuaBridge

extension PolicyFunctionDefinition {
    /// The lines that hold code of each of `definitions`' own function (without the functions
    /// written within it), as Lua's line information (`activelines`) gives them.
    ///
    /// Each function is compiled alone, as `return function(…) … end` on its own lines, in a
    /// state of its own, so a function no hook reaches (a helper nothing calls) is learned as
    /// well, and no line counts as run. A function that does not compile alone holds none.
    static func codeLines(of definitions: [PolicyFunctionDefinition], in source: PolicySource) -> [Set<Int>] {
        guard let state = try? LuaState() else { return definitions.map { _ in [] } }
        let bytes = Array(source.text.utf8)
        return definitions.map { definition in
            guard definition.body.upperBound <= bytes.count else { return [] }
            let alone = String(repeating: "\n", count: definition.bodyLine - 1) + "return function"
                + String(decoding: bytes[definition.body], as: UTF8.self)
            guard let function = try? state.load(alone, chunkName: source.chunkName) else { return [] }
            defer { state.release(function) }
            return state.activeLines(of: function)
        }
    }
}
