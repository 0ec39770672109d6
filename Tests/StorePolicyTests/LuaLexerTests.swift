import Testing
@testable import StorePolicy

@Suite struct LuaLexerTests {
    private func strings(_ source: String) -> [String] {
        LuaLexer.tokens(of: source).compactMap(\.string)
    }

    private func numbers(_ source: String) -> [LuaToken.Number] {
        LuaLexer.tokens(of: source).compactMap { token in
            if case .number(let number) = token.kind { return number }
            return nil
        }
    }

    @Test func stringsInEveryQuoteFormAreRead() {
        let source = #"""
        local a, b = "double", 'single'
        local c = [[long
        bracket]]
        local d = [==[with ]] inside]==]
        local e = [[
        first line end skipped]]
        """#
        #expect(strings(source) == ["double", "single", "long\nbracket", "with ]] inside", "first line end skipped"])
    }

    @Test func escapesAreDecodedAsLuaDecodesThem() {
        let source = #"""
        x = "tab\tquote\"apostrophe\'backslash\\"
        y = 'hex\x41 decimal\66\0671 unicode\u{20AC} \z
              joined'
        z = "line\
        break"
        """#
        #expect(strings(source) == ["tab\tquote\"apostrophe'backslash\\", "hexA decimalBC1 unicode€ joined", "line\nbreak"])
    }

    @Test func commentsAreSkippedWhateverTheyHold() {
        let source = """
        -- "not a string" 42
        --[[ "nor this" 7
        ]] x = "kept" --[==[ "skipped" ]] still ]==] y = 'also kept'
        --[ only a line comment "gone"
        z = 3
        """
        #expect(strings(source) == ["kept", "also kept"])
        #expect(numbers(source) == [.integer(3)])
    }

    @Test func numbersInEveryFormAreRead() {
        let source = "a = { 3, 0xFF, 1.5, .5, 3., 1e3, 2E-2, 0x1p4, 0x.8, 9223372036854775808, 0xFFFFFFFFFFFFFFFF }"
        #expect(numbers(source) == [
            .integer(3), .integer(255), .float(1.5), .float(0.5), .float(3), .float(1000), .float(0.02), .float(16), .float(0.5),
            .float(9_223_372_036_854_775_808), .integer(-1),
        ])
    }

    @Test func symbolsTakeTheLongestMatchAndNumbersAreNotConcatenations() {
        let tokens = LuaLexer.tokens(of: "a == b .. c ... ~= 1 .. .2 - -3")
        let kinds = tokens.map(\.kind)
        #expect(kinds == [.name("a"), .symbol("=="), .name("b"), .symbol(".."), .name("c"), .symbol("..."), .symbol("~="),
                          .number(.integer(1)), .symbol(".."), .number(.float(0.2)), .symbol("-"), .symbol("-"), .number(.integer(3))])
    }

    @Test func linesAreCountedAsLuaCountsThem() {
        let source = "a = 1\r\nb = [[x\ny]]\n\rc = 'z'\n--[[\n\n]] d = 4"
        let lines = LuaLexer.tokens(of: source).filter { $0.name != nil }.map(\.line)
        #expect(lines == [1, 2, 4, 7])
    }
}
