/// One token of Lua source, as ``LuaLexer`` reads it, with the line it starts on.
struct LuaToken: Sendable, Equatable {
    /// What the token is.
    enum Kind: Sendable, Equatable {
        /// A name (`ctx`, `paywall_shown`).
        case name(String)
        /// A reserved word (`function`, `end`, `local`, `nil`, `true`…).
        case keyword(String)
        /// A string constant in any quote form, with its escapes decoded.
        case string(String)
        /// A number constant: an integer, or a float.
        case number(Number)
        /// An operator or punctuation (`==`, `..`, `{`, `=`…).
        case symbol(String)
    }

    /// A number constant as Lua reads it.
    enum Number: Sendable, Hashable {
        /// An integer constant (`3`, `0xFF`).
        case integer(Int64)
        /// A float constant (`1.5`, `1e3`, a decimal integer too large for 64 bits).
        case float(Double)
    }

    /// What the token is.
    var kind: Kind
    /// The line it starts on, counted from 1 as Lua counts them.
    var line: Int
    /// Where it starts: its first byte's offset in the source's UTF-8.
    var offset: Int

    /// The Lua reserved words.
    static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// Whether the token is the symbol `text`.
    func isSymbol(_ text: String) -> Bool { kind == .symbol(text) }

    /// Whether the token is the reserved word `word`.
    func isKeyword(_ word: String) -> Bool { kind == .keyword(word) }

    /// The name, when the token is one.
    var name: String? {
        if case .name(let name) = kind { return name }
        return nil
    }

    /// The string's value, when the token is a string constant.
    var string: String? {
        if case .string(let value) = kind { return value }
        return nil
    }

    /// Whether a value can end with this token, so that a `-` after it subtracts rather than
    /// negates.
    var endsAValue: Bool {
        switch kind {
        case .name, .string, .number: true
        case .keyword(let word): word == "nil" || word == "true" || word == "false" || word == "end"
        case .symbol(let text): text == ")" || text == "]" || text == "}" || text == "..."
        }
    }
}
