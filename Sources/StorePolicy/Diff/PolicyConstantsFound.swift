/// The constants and names one Lua file holds, in the order they appear.
struct PolicyConstantsFound {
    /// Its string constants and table constructors' keys.
    var strings: [String] = []
    /// Its number constants, negative when written after a unary minus.
    var numbers: [LuaToken.Number] = []
    /// The attribute names it reads or sets.
    var attributeNames: [String] = []
    /// The event names it reads or sets.
    var eventNames: [String] = []

    /// The constants of the Lua text `source`.
    init(in source: String) {
        let tokens = LuaLexer.tokens(of: source)
        let enclosing = Self.enclosingOpeners(tokens)
        let locals = Self.localStrings(tokens)
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .string(let value):
                strings.append(value)
            case .name(let name):
                if Self.isConstructorKey(index, tokens, enclosing) { strings.append(name) }
                if name == "attributes" { attributeNames += Self.names(after: index, tokens, enclosing, locals: locals) }
                if name == "events" { eventNames += Self.names(after: index, tokens, enclosing, locals: locals) }
            case .number(let number):
                numbers.append(Self.isNegated(index, tokens) ? Self.negated(number) : number)
            case .keyword, .symbol:
                continue
            }
        }
    }

    /// For each token, the index of the innermost token still open around it: a `{`, `(` or
    /// `[`, or a `function`, `if`, `do` or `repeat` whose block has not ended; nil at the top level.
    private static func enclosingOpeners(_ tokens: [LuaToken]) -> [Int?] {
        var open: [Int] = []
        var enclosing: [Int?] = []
        enclosing.reserveCapacity(tokens.count)
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .symbol("}"), .symbol(")"), .symbol("]"), .keyword("end"), .keyword("until"):
                _ = open.popLast()
                enclosing.append(open.last)
            case .symbol("{"), .symbol("("), .symbol("["), .keyword("function"), .keyword("if"), .keyword("do"), .keyword("repeat"):
                enclosing.append(open.last)
                open.append(index)
            default:
                enclosing.append(open.last)
            }
        }
        return enclosing
    }

    /// Whether the name at `index` is a key of the table constructor right around it:
    /// `{ key = …`, `, key = …` or `; key = …`.
    private static func isConstructorKey(_ index: Int, _ tokens: [LuaToken], _ enclosing: [Int?]) -> Bool {
        guard index > 0, index + 1 < tokens.count, tokens[index + 1].isSymbol("="),
              let opener = enclosing[index], tokens[opener].isSymbol("{") else { return false }
        return tokens[index - 1].isSymbol("{") || tokens[index - 1].isSymbol(",") || tokens[index - 1].isSymbol(";")
    }

    /// Whether the number at `index` follows a unary minus (a `-` that does not end a subtraction).
    private static func isNegated(_ index: Int, _ tokens: [LuaToken]) -> Bool {
        guard index > 0, tokens[index - 1].isSymbol("-") else { return false }
        return index == 1 || !tokens[index - 2].endsAValue
    }

    private static func negated(_ number: LuaToken.Number) -> LuaToken.Number {
        switch number {
        case .integer(let value): .integer(0 &- value)
        case .float(let value): .float(-value)
        }
    }

    /// The strings `local NAME = "…"` binds, by name, so that `events[NAME]` names its event.
    private static func localStrings(_ tokens: [LuaToken]) -> [String: String] {
        var bound: [String: String] = [:]
        for index in tokens.indices where index + 3 < tokens.count && tokens[index].isKeyword("local") {
            guard let name = tokens[index + 1].name, tokens[index + 2].isSymbol("="), let value = tokens[index + 3].string else { continue }
            let next = index + 4 < tokens.count ? tokens[index + 4] : nil
            if next?.isSymbol("..") != true { bound[name] = value }
        }
        return bound
    }

    /// The names a table called `attributes` or `events` at `index` is read or built with:
    /// `.NAME`, `["NAME"]`, `[LOCAL]` (a local bound to a string), or the keys of `= { NAME = … }`.
    private static func names(after index: Int, _ tokens: [LuaToken], _ enclosing: [Int?], locals: [String: String]) -> [String] {
        guard index + 2 < tokens.count else { return [] }
        let next = tokens[index + 1]
        if next.isSymbol("."), let name = tokens[index + 2].name { return [name] }
        if next.isSymbol("["), index + 3 < tokens.count, tokens[index + 3].isSymbol("]") {
            if let name = tokens[index + 2].string { return [name] }
            if let variable = tokens[index + 2].name, let name = locals[variable] { return [name] }
        }
        if next.isSymbol("="), tokens[index + 2].isSymbol("{") { return constructorKeys(of: index + 2, tokens, enclosing) }
        return []
    }

    /// The keys written at the top level of the table constructor whose `{` is at `open`:
    /// `name = …` and `["name"] = …`.
    private static func constructorKeys(of open: Int, _ tokens: [LuaToken], _ enclosing: [Int?]) -> [String] {
        var keys: [String] = []
        for index in (open + 1)..<tokens.count where enclosing[index] == open {
            if tokens[index].isSymbol("}") { break }
            if let name = tokens[index].name, isConstructorKey(index, tokens, enclosing) { keys.append(name) }
            if tokens[index].isSymbol("["), index + 3 < tokens.count, let key = tokens[index + 1].string,
               tokens[index + 2].isSymbol("]"), tokens[index + 3].isSymbol("="),
               tokens[index - 1].isSymbol("{") || tokens[index - 1].isSymbol(",") || tokens[index - 1].isSymbol(";") {
                keys.append(key)
            }
        }
        return keys
    }
}
