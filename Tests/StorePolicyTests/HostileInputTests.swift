import Foundation
@testable import StorePolicy
import Testing

/// Bytes no input decoder may trap on: each gives a typed error.
@Suite struct HostileInputTests {
    @Test("lists nested 100,000 deep are refused at the depth limit without recursing")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(contextError(deep) == .tooDeep(line: 1, column: 65, limit: 64))
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(contextError(objects) == .tooDeep(line: 1, column: 321, limit: 64))
    }

    @Test("nesting up to the limit is read")
    func nestingAtTheLimit() throws {
        let value = String(repeating: "[", count: 61) + String(repeating: "]", count: 61)
        let context = try PolicyContext.decode(json: Data(#"{"customer":{"attributes":{"x":\#(value)}}}"#.utf8))
        #expect(context.customer.attributes["x"] != nil)
        #expect(contextError(#"{"customer":{"attributes":{"x":[\#(value)]}}}"#) == .tooDeep(line: 1, column: 93, limit: 64))
    }

    @Test("a field given twice is refused with its path")
    func duplicateFields() {
        #expect(contextError(#"{"customer":{},"customer":{}}"#)?.description == "field 'customer' appears twice at the top level")
        #expect(contextError(#"{"customer":{"balances":{"a":1,"a":2}}}"#) == .duplicateField(path: "customer.balances", field: "a"))
    }

    @Test("invalid UTF-8 is refused, in a string or outside one")
    func invalidUTF8() {
        #expect(contextError(Data([0x7B, 0x22, 0x69, 0x64, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]))
                == .malformed(line: 1, column: 7, reason: "the string is not valid UTF-8"))
        #expect(contextError(Data([0xC3, 0x28])) == .malformed(line: 1, column: 1, reason: "unexpected byte 0xC3; expected a value"))
        #expect(contextError(Data([0xEF, 0xBB, 0xBF, 0x7B, 0x7D]))?.description.hasPrefix("not JSON: line 1, column 1") == true)
    }

    @Test("a lone surrogate escape is refused; a surrogate pair is one character")
    func surrogates() throws {
        #expect(contextError(#"{"customer":{"id":"\ud800"}}"#)?.description
                == #"not JSON: line 1, column 26: lone surrogate \ud800: a high surrogate must be followed by a low one"#)
        #expect(contextError(#"{"customer":{"id":"\udc00x"}}"#)?.description
                == #"not JSON: line 1, column 26: lone surrogate \udc00: a low surrogate must follow a high one"#)
        #expect(contextError(#"{"customer":{"id":"\ud800\u0041"}}"#) != nil)
        let context = try PolicyContext.decode(json: Data(#"{"customer":{"id":"\ud83d\udc26 \u00e9\n"}}"#.utf8))
        #expect(context.customer.id == "🐦 é\n")
    }

    @Test("truncated input says where it ends")
    func truncatedInput() {
        let whole = #"{"now": 1700000000, "customer": {"id": "ada", "balances": {"pellet": 3}}}"#
        for length in 0..<whole.utf8.count {
            let error = contextError(Data(whole.utf8.prefix(length)))
            guard case .malformed = error else {
                Issue.record("\(length) bytes: \(String(describing: error))")
                continue
            }
        }
        #expect(contextError("") == .malformed(line: 1, column: 1, reason: "unexpected end of input; expected a value"))
        #expect(contextError(#"{"id": "ada"#) == .malformed(line: 1, column: 8, reason: "unterminated string"))
        #expect(contextError("{\n\"now\": 1,\n") == .malformed(line: 3, column: 1, reason: "unexpected end of input; expected a field name in double quotes"))
    }

    @Test("text that is not JSON is refused with its line and column")
    func notJSON() {
        #expect(contextError("{} {}") == .malformed(line: 1, column: 4, reason: "unexpected '{' after the JSON value"))
        #expect(contextError(#"{"now": 01}"#) == .malformed(line: 1, column: 10, reason: "unexpected '1'; expected ',' or '}' in an object"))
        #expect(contextError(#"{"now": 1.}"#) == .malformed(line: 1, column: 11, reason: "unexpected '}'; expected a digit after '.'"))
        #expect(contextError(#"{"now": tru}"#) == .malformed(line: 1, column: 9, reason: "unexpected 't'; expected a value"))
        #expect(contextError("{\"id\": \"a\tb\"}") == .malformed(line: 1, column: 10, reason: "a control character (byte 9) in a string must be escaped"))
        #expect(contextError(#"{"id": "\x"}"#) == .malformed(line: 1, column: 11, reason: #"unknown escape '\x' in a string"#))
        #expect(contextError(#"{'id': 1}"#) == .malformed(line: 1, column: 2, reason: "unexpected '''; expected a field name in double quotes"))
    }

    @Test("arbitrary bytes never trap the decoders")
    func randomBytes() {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array(#"{}[]":,\-+.eE0123456789 tfnul"abc\u00"#.utf8) + [0x00, 0xFF, 0xC3, 0x0A]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = Data((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            _ = contextError(bytes)
            _ = try? HookRequest.decode(json: bytes)
        }
    }
}

/// A small deterministic random number generator (SplitMix64), so that a failing case repeats.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that always produces the same sequence for `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
