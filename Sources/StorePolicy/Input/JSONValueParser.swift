import Foundation

/// Reads JSON text (RFC 8259) into a ``JSONValue`` for any bytes, or says why not: text that
/// is not JSON, invalid UTF-8, a lone surrogate escape, lists and objects nested deeper than
/// ``maximumDepth``, an object with the same field twice. It never traps and recurses at most
/// ``maximumDepth`` levels.
struct JSONValueParser {
    /// How deep lists and objects may nest.
    static let maximumDepth = 64

    /// The text being read.
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    private var position = 0
    /// The line of `position`, from 1.
    private var line = 1
    /// The offset where that line starts.
    private var lineStart = 0
    /// The fields and positions leading to the value being read.
    private var path: [InputKey] = []

    /// Parses the whole of `data`: one value, with only whitespace around it.
    static func parse(_ data: Data) throws(PolicyInputError) -> JSONValue {
        var parser = JSONValueParser(bytes: [UInt8](data))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.malformed("unexpected \(parser.found) after the JSON value") }
        return value
    }

    /// A parser at the start of `bytes`.
    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Values

    /// The value at the current position, inside `depth` lists and objects.
    private mutating func value(depth: Int) throws(PolicyInputError) -> JSONValue {
        guard let byte = peek() else { throw malformed("unexpected end of input; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .boolean(true)
        case UInt8(ascii: "f"): try literal("false"); return .boolean(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try finiteNumber())
        default: throw malformed("unexpected \(found); expected a value")
        }
    }

    /// The object at the current position (at `{`), as the `depth`th level.
    private mutating func object(depth: Int) throws(PolicyInputError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw PolicyInputError.tooDeep(line: line, column: column, limit: Self.maximumDepth) }
        position += 1
        var fields: [(name: String, value: JSONValue)] = []
        var names: Set<String> = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { position += 1; return .object(fields) }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw malformed("unexpected \(found); expected a field name in double quotes") }
            let name = try string()
            guard names.insert(name).inserted else {
                throw PolicyInputError.duplicateField(path: JSONPath.render(path), field: name)
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw malformed("unexpected \(found); expected ':' after a field name") }
            position += 1
            skipWhitespace()
            path.append(InputKey(name))
            fields.append((name, try value(depth: depth)))
            path.removeLast()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1; skipWhitespace()
            case UInt8(ascii: "}"): position += 1; return .object(fields)
            default: throw malformed("unexpected \(found); expected ',' or '}' in an object")
            }
        }
    }

    /// The list at the current position (at `[`), as the `depth`th level.
    private mutating func array(depth: Int) throws(PolicyInputError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw PolicyInputError.tooDeep(line: line, column: column, limit: Self.maximumDepth) }
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { position += 1; return .array(items) }
        while true {
            path.append(InputKey(index: items.count))
            items.append(try value(depth: depth))
            path.removeLast()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1; skipWhitespace()
            case UInt8(ascii: "]"): position += 1; return .array(items)
            default: throw malformed("unexpected \(found); expected ',' or ']' in a list")
            }
        }
    }

    /// Reads `word` (`true`, `false` or `null`) at the current position.
    private mutating func literal(_ word: String) throws(PolicyInputError) {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected) else {
            throw malformed("unexpected \(found); expected a value")
        }
        position += expected.count
    }

    /// A number whose value a `Double` holds, as written.
    private mutating func finiteNumber() throws(PolicyInputError) -> String {
        let text = try number()
        guard Double(text)?.isFinite == true else {
            let shown = text.count <= 32 ? text : String(text.prefix(32)) + "…"
            throw PolicyInputError.invalidValue(
                path: JSONPath.render(path), reason: "the number \(shown) is out of range (at most ±\(Double.greatestFiniteMagnitude))")
        }
        return text
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, as written.
    private mutating func number() throws(PolicyInputError) -> String {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        if peek() == UInt8(ascii: "0") {
            position += 1
        } else {
            guard try digits() > 0 else { throw malformed("unexpected \(found); expected a digit") }
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard try digits() > 0 else { throw malformed("unexpected \(found); expected a digit after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard try digits() > 0 else { throw malformed("unexpected \(found); expected a digit in the exponent") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Reads decimal digits; returns how many.
    private mutating func digits() throws(PolicyInputError) -> Int {
        let start = position
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position - start
    }

    // MARK: Strings

    /// The string at the current position (at its opening quote), unescaped.
    private mutating func string() throws(PolicyInputError) -> String {
        let opening = (line: line, column: column)
        position += 1
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw PolicyInputError.malformed(line: opening.line, column: opening.column, reason: "unterminated string")
            }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let decoded = String(validating: text, as: UTF8.self) else {
                    throw PolicyInputError.malformed(line: opening.line, column: opening.column, reason: "the string is not valid UTF-8")
                }
                return decoded
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &text)
            case 0..<0x20:
                throw malformed("a control character (byte \(byte)) in a string must be escaped")
            default:
                text.append(byte)
                position += 1
            }
        }
    }

    /// Reads the escape after a backslash and appends its UTF-8 bytes to `text`.
    private mutating func escape(into text: inout [UInt8]) throws(PolicyInputError) {
        guard let byte = peek() else { throw malformed("unexpected end of input in an escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"): text.append(contentsOf: String(try unicodeEscape()).utf8)
        default: throw malformed("unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
        }
    }

    /// The scalar of `\uXXXX` (the `\u` read), joining a surrogate pair.
    private mutating func unicodeEscape() throws(PolicyInputError) -> Unicode.Scalar {
        let first = try hexQuad()
        switch first {
        case 0xD800...0xDBFF:
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw malformed("lone surrogate \\u\(String(first, radix: 16)): a high surrogate must be followed by a low one")
            }
            position += 2
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second),
                  let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) else {
                throw malformed("lone surrogate \\u\(String(first, radix: 16)): a high surrogate must be followed by a low one")
            }
            return scalar
        case 0xDC00...0xDFFF:
            throw malformed("lone surrogate \\u\(String(first, radix: 16)): a low surrogate must follow a high one")
        default:
            guard let scalar = Unicode.Scalar(first) else { throw malformed("invalid escape \\u\(String(first, radix: 16))") }
            return scalar
        }
    }

    /// Reads four hexadecimal digits.
    private mutating func hexQuad() throws(PolicyInputError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw malformed("expected four hexadecimal digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    // MARK: Reading

    /// The byte at the current position; nil at the end.
    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    /// Moves past spaces, tabs and line breaks, counting lines.
    private mutating func skipWhitespace() {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): position += 1
            case UInt8(ascii: "\n"): position += 1; line += 1; lineStart = position
            default: return
            }
        }
    }

    /// The column of the current position, from 1, in bytes.
    private var column: Int { position - lineStart + 1 }

    /// The byte at the current position in words, for error messages.
    private var found: String {
        guard let byte = peek() else { return "end of input" }
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// The error for text that is not JSON at the current position.
    private func malformed(_ reason: String) -> PolicyInputError {
        .malformed(line: line, column: column, reason: reason)
    }
}
