/// A function written in a policy's source, found in its tokens: its name where it is written,
/// its lines, and its text as an expression, so that coverage can list every function — hooks,
/// local helpers, functions kept in other tables — and learn the lines of each from Lua itself.
struct PolicyFunctionDefinition {
    /// The name it is written with: `active_pass` (`local function active_pass`), `policy.grant`,
    /// `Format:price` (`function Format:price`), `features` (`features = function`), or nil for a
    /// function with none (an argument such as `table.sort`'s comparison).
    var name: String?
    /// From the line of its `function` to the line of its `end`.
    var lines: ClosedRange<Int>
    /// Its parameter list and body, from `(` to the end of its `end`, as offsets in the source's UTF-8.
    var body: Range<Int>
    /// The line its parameter list opens on.
    var bodyLine: Int

    /// Every function written in the source `tokens` come from, in the order they start.
    static func all(in tokens: [LuaToken]) -> [PolicyFunctionDefinition] {
        enum Block {
            case function(name: String?, line: Int, opening: LuaToken)
            case other
        }
        var open: [Block] = []
        var found: [PolicyFunctionDefinition] = []
        for (index, token) in tokens.enumerated() {
            guard case .keyword(let word) = token.kind else { continue }
            switch word {
            case "function":
                let (name, parameters) = header(at: index, in: tokens)
                open.append(.function(name: name, line: token.line, opening: parameters.map { tokens[$0] } ?? token))
            case "if", "do", "repeat":
                open.append(.other)
            case "end", "until":
                guard let block = open.popLast() else { continue }
                if case .function(let name, let line, let opening) = block, word == "end" {
                    found.append(PolicyFunctionDefinition(name: name, lines: line...max(line, token.line),
                                                          body: opening.offset..<(token.offset + 3), bodyLine: opening.line))
                }
            default:
                continue
            }
        }
        return found.sorted { ($0.lines.lowerBound, $0.body.lowerBound) < ($1.lines.lowerBound, $1.body.lowerBound) }
    }

    /// The name of the function whose `function` is token `index`, and the index of the `(`
    /// opening its parameters.
    private static func header(at index: Int, in tokens: [LuaToken]) -> (String?, Int?) {
        var position = index + 1
        if position < tokens.count, let first = tokens[position].name {
            var name = first
            position += 1
            while position + 1 < tokens.count, tokens[position].isSymbol(".") || tokens[position].isSymbol(":"),
                  let part = tokens[position + 1].name {
                name += (tokens[position].isSymbol(".") ? "." : ":") + part
                position += 2
            }
            return (name, position < tokens.count && tokens[position].isSymbol("(") ? position : nil)
        }
        let parameters = position < tokens.count && tokens[position].isSymbol("(") ? position : nil
        return (assignedName(before: index, in: tokens), parameters)
    }

    /// The name a function expression at token `index` is assigned to: `name = function`,
    /// `a.b = function`, `["key"] = function`; nil for any other expression.
    private static func assignedName(before index: Int, in tokens: [LuaToken]) -> String? {
        guard index >= 2, tokens[index - 1].isSymbol("=") else { return nil }
        if let key = tokens[index - 2].name {
            var name = key
            var position = index - 2
            while position >= 2, tokens[position - 1].isSymbol("."), let part = tokens[position - 2].name {
                name = part + "." + name
                position -= 2
            }
            return name
        }
        if index >= 4, tokens[index - 2].isSymbol("]"), let key = tokens[index - 3].string, tokens[index - 4].isSymbol("[") {
            return key
        }
        return nil
    }
}
