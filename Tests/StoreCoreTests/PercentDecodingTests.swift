import StoreCore
import Testing

/// The one strict percent-decoder: escapes decode to UTF-8, and whatever could mean two things
/// is refused with a sentence naming the rule.
@Suite struct PercentDecodingTests {
    @Test func escapesDecodeToUTF8() throws {
        #expect(try PercentDecoding.decode("ana%20b%C3%A9", allowsSlash: false) == "ana bé")
        #expect(try PercentDecoding.decode("plain", allowsSlash: false) == "plain")
        #expect(try PercentDecoding.decode("a%2Fb", allowsSlash: true) == "a/b")
    }

    @Test("what could mean two things is refused, naming the rule", arguments: [
        ("a%2", false, "two hex digits"), ("a%zz", false, "two hex digits"), ("carol%00x", true, "NUL"),
        ("a%2Fb", false, "'/'"), ("%C3", true, "not UTF-8"),
    ])
    func refusals(text: String, allowsSlash: Bool, rule: String) {
        #expect {
            try PercentDecoding.decode(text[...], allowsSlash: allowsSlash)
        } throws: { error in
            (error as? PercentDecoding.Failure)?.description.contains(rule) == true
        }
    }
}
