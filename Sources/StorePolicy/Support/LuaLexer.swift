import Foundation

/// Reads Lua 5.4 source into tokens as Lua's own lexer does: names, reserved words, strings in
/// every quote form (`'…'`, `"…"` with all their escapes, long brackets `[[…]]`, `[==[…]==]`),
/// numbers (decimal, hexadecimal, floats, exponents) and symbols, with comments (`--` to the end
/// of the line, and long comments `--[[…]]`) skipped and lines counted as Lua counts them.
///
/// It never fails: text Lua would refuse (an unfinished string, a stray byte) is read as far as
/// it goes, since a policy that does not compile is refused before its tokens matter.
struct LuaLexer {
    private let bytes: [UInt8]
    private var position = 0
    private var line = 1

    /// The tokens of `source`, in order.
    static func tokens(of source: String) -> [LuaToken] {
        var lexer = LuaLexer(bytes: Array(source.utf8))
        var tokens: [LuaToken] = []
        while let token = lexer.next() { tokens.append(token) }
        return tokens
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let symbols = ["...", "..", "==", "~=", "<=", ">=", "//", "::", "<<", ">>"].map { Array($0.utf8) }

    /// The next token, or nil at the end of the source.
    private mutating func next() -> LuaToken? {
        while position < bytes.count {
            let byte = bytes[position]
            let start = position
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                skipLineEnd()
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
                position += 1
            case UInt8(ascii: "-") where peek(1) == UInt8(ascii: "-"):
                position += 2
                skipComment()
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let startLine = line
                return LuaToken(kind: .string(readQuotedString()), line: startLine, offset: start)
            case UInt8(ascii: "[") where longBracketLevel() != nil:
                let startLine = line
                return LuaToken(kind: .string(readLongBracket()), line: startLine, offset: start)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                return LuaToken(kind: .number(readNumber()), line: line, offset: start)
            case UInt8(ascii: ".") where peek(1).map(Self.isDigit) == true:
                return LuaToken(kind: .number(readNumber()), line: line, offset: start)
            case _ where Self.startsName(byte):
                let word = readName()
                return LuaToken(kind: LuaToken.keywords.contains(word) ? .keyword(word) : .name(word), line: line, offset: start)
            case 0x21...0x7E:
                return LuaToken(kind: .symbol(readSymbol()), line: line, offset: start)
            default:
                position += 1
            }
        }
        return nil
    }

    // MARK: Lines and comments

    private func peek(_ offset: Int) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    /// Skips one line end: `\n`, `\r`, `\r\n` or `\n\r`, one line each, as Lua counts them.
    private mutating func skipLineEnd() {
        let first = bytes[position]
        position += 1
        if let second = peek(0), second != first, second == UInt8(ascii: "\n") || second == UInt8(ascii: "\r") {
            position += 1
        }
        line += 1
    }

    private static func isLineEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// Skips a comment whose `--` is already read: a long comment, or the rest of the line.
    private mutating func skipComment() {
        if peek(0) == UInt8(ascii: "["), longBracketLevel() != nil {
            _ = readLongBracket()
            return
        }
        while position < bytes.count, !Self.isLineEnd(bytes[position]) { position += 1 }
    }

    // MARK: Strings

    /// The level of the long bracket opening at the current `[` (`[[` is 0, `[==[` is 2), or
    /// nil when the `[` opens none.
    private func longBracketLevel() -> Int? {
        var level = 0
        while peek(1 + level) == UInt8(ascii: "=") { level += 1 }
        return peek(1 + level) == UInt8(ascii: "[") ? level : nil
    }

    /// Reads a long bracket's contents, without a first line end right after the opening, with
    /// every line end as `\n`.
    private mutating func readLongBracket() -> String {
        let level = longBracketLevel() ?? 0
        position += level + 2
        if position < bytes.count, Self.isLineEnd(bytes[position]) { skipLineEnd() }
        var content: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "]"), closesLongBracket(level: level) {
                position += level + 2
                break
            }
            if Self.isLineEnd(byte) {
                skipLineEnd()
                content.append(UInt8(ascii: "\n"))
            } else {
                content.append(byte)
                position += 1
            }
        }
        return String(decoding: content, as: UTF8.self)
    }

    private func closesLongBracket(level: Int) -> Bool {
        for offset in 1...(level + 1) where peek(offset) != (offset == level + 1 ? UInt8(ascii: "]") : UInt8(ascii: "=")) {
            return false
        }
        return true
    }

    /// Reads a string in single or double quotes, decoding its escapes.
    private mutating func readQuotedString() -> String {
        let quote = bytes[position]
        position += 1
        var content: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == quote {
                position += 1
                break
            }
            if Self.isLineEnd(byte) { break }
            if byte == UInt8(ascii: "\\") {
                position += 1
                readEscape(into: &content)
            } else {
                content.append(byte)
                position += 1
            }
        }
        return String(decoding: content, as: UTF8.self)
    }

    private static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "a"): 0x07, UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
        UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09, UInt8(ascii: "v"): 0x0B, UInt8(ascii: "\\"): 0x5C,
        UInt8(ascii: "\""): 0x22, UInt8(ascii: "'"): 0x27,
    ]

    /// Reads the escape after a backslash: `\n` and its kin, a line end, `\z`, `\xXX`, `\ddd`, `\u{X…}`.
    private mutating func readEscape(into content: inout [UInt8]) {
        guard position < bytes.count else { return }
        let byte = bytes[position]
        if let decoded = Self.simpleEscapes[byte] {
            content.append(decoded)
            position += 1
        } else if Self.isLineEnd(byte) {
            skipLineEnd()
            content.append(UInt8(ascii: "\n"))
        } else if byte == UInt8(ascii: "z") {
            position += 1
            while position < bytes.count, Self.isSpace(bytes[position]) {
                if Self.isLineEnd(bytes[position]) { skipLineEnd() } else { position += 1 }
            }
        } else if byte == UInt8(ascii: "x") {
            position += 1
            content.append(UInt8(truncatingIfNeeded: readDigits(radix: 16, atMost: 2)))
        } else if Self.isDigit(byte) {
            content.append(UInt8(truncatingIfNeeded: readDigits(radix: 10, atMost: 3)))
        } else if byte == UInt8(ascii: "u"), peek(1) == UInt8(ascii: "{") {
            position += 2
            let codePoint = readDigits(radix: 16, atMost: 8)
            if peek(0) == UInt8(ascii: "}") { position += 1 }
            content.append(contentsOf: Self.utf8(codePoint))
        } else {
            content.append(byte)
            position += 1
        }
    }

    private mutating func readDigits(radix: Int, atMost count: Int) -> Int {
        var value = 0
        var read = 0
        while read < count, position < bytes.count, let digit = Self.digitValue(bytes[position], radix: radix) {
            value = value * radix + digit
            position += 1
            read += 1
        }
        return value
    }

    /// A code point as Lua's `\u{…}` writes it: UTF-8, extended to 31 bits.
    private static func utf8(_ codePoint: Int) -> [UInt8] {
        if codePoint < 0x80 { return [UInt8(codePoint)] }
        var continuation: [UInt8] = []
        var rest = codePoint
        var firstByteLimit = 0x3F
        while rest > firstByteLimit {
            continuation.insert(UInt8(0x80 | (rest & 0x3F)), at: 0)
            rest >>= 6
            firstByteLimit >>= 1
        }
        let lead = UInt8(truncatingIfNeeded: ((~firstByteLimit) << 1) | rest)
        return [lead] + continuation
    }

    // MARK: Numbers, names and symbols

    /// Reads a numeral as Lua does: digits, a point, an exponent with its sign; hexadecimal
    /// after `0x`, with a binary exponent `p`.
    private mutating func readNumber() -> LuaToken.Number {
        let start = position
        var exponent: Set<UInt8> = [UInt8(ascii: "e"), UInt8(ascii: "E")]
        if bytes[position] == UInt8(ascii: "0"), let x = peek(1), x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
            exponent = [UInt8(ascii: "p"), UInt8(ascii: "P")]
            position += 2
        }
        while position < bytes.count {
            let byte = bytes[position]
            if exponent.contains(byte) {
                position += 1
                if let sign = peek(0), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            } else if Self.digitValue(byte, radix: 16) != nil || byte == UInt8(ascii: ".") {
                position += 1
            } else {
                break
            }
        }
        return Self.number(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    /// The value of numeral `text`: an integer when it has no point or exponent (hexadecimal
    /// integers wrap around as in Lua, decimal ones too large become floats), else a float.
    static func number(_ text: String) -> LuaToken.Number {
        let lowered = text.lowercased()
        if lowered.hasPrefix("0x") {
            let digits = lowered.dropFirst(2)
            if !digits.contains(".") && !digits.contains("p") {
                var value: UInt64 = 0
                for character in digits { value = value &* 16 &+ UInt64(character.hexDigitValue ?? 0) }
                return .integer(Int64(bitPattern: value))
            }
            return .float(Double(lowered) ?? 0)
        }
        if !lowered.contains(".") && !lowered.contains("e"), let integer = Int64(lowered) {
            return .integer(integer)
        }
        return .float(Double(lowered) ?? 0)
    }

    private mutating func readName() -> String {
        let start = position
        while position < bytes.count, Self.startsName(bytes[position]) || Self.isDigit(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func readSymbol() -> String {
        for symbol in Self.symbols where bytes[position...].starts(with: symbol) {
            position += symbol.count
            return String(decoding: symbol, as: UTF8.self)
        }
        position += 1
        return String(decoding: [bytes[position - 1]], as: UTF8.self)
    }

    private static func startsName(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }

    private static func digitValue(_ byte: UInt8, radix: Int) -> Int? {
        let value: Int
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
        return value < radix ? value : nil
    }
}
