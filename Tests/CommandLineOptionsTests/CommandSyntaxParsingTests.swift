import CommandLineOptions
import Testing

/// How ``CommandSyntax`` reads a command line, on a small `shop` command with subcommands.
@Suite struct CommandSyntaxParsingTests {
    /// `shop DIR [--ledger FILE] [--root PEM]... <command>`, with `buy` and `status`.
    let syntax = CommandSyntax("shop", options: [
        .value("ledger", "FILE", help: "The ledger."),
        .repeatable("root", "PEM", help: "A root; repeat for several."),
        .flag("json", help: "Print JSON."),
    ], subcommands: [
        Subcommand("buy", arguments: "PRODUCT", summary: "Buy.", options: [
            .value("quantity", "N", help: "How many."),
            .value("customer", "ID", help: "Who."),
        ]),
        Subcommand("status", summary: "Show.", options: [.value("customer", "ID", help: "Whose.")]),
    ], subcommandPosition: 1)

    private func mistake(_ arguments: [String]) -> String? {
        do {
            _ = try syntax.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("an unknown option is refused, naming the subcommand and suggesting the nearest option")
    func unknownOptionSuggestsTheNearest() {
        #expect(mistake(["dir", "buy", "x", "--quantiy", "3"])
            == "unknown option '--quantiy' for shop buy; did you mean '--quantity'?")
        #expect(mistake(["dir", "status", "--zzzzzzzz"]) == "unknown option '--zzzzzzzz' for shop status")
    }

    @Test("an option of another subcommand is refused, naming the subcommand given and the one it belongs to")
    func optionOfAnotherSubcommandIsRefused() {
        #expect(mistake(["dir", "status", "--quantity", "3"])
            == "shop status takes no option '--quantity'; it is an option of shop buy")
    }

    @Test("an unknown subcommand is refused with the nearest one suggested")
    func unknownSubcommandIsRefused() {
        #expect(mistake(["dir", "statsu"]) == "unknown shop command 'statsu'; did you mean 'status'?")
    }

    @Test("an option without its value is refused, at the end or before another option")
    func missingValuesAreRefused() {
        #expect(mistake(["dir", "buy", "x", "--quantity"]) == "option '--quantity' needs a value (N)")
        #expect(mistake(["dir", "buy", "x", "--quantity", "--json"]) == "option '--quantity' needs a value (N)")
    }

    @Test("--help after an option that needs a value asks for help rather than being taken as the value")
    func helpIsNotSwallowedAsAValue() throws {
        let parsed = try syntax.parse(["dir", "buy", "x", "--customer", "--help"])
        #expect(parsed.helpRequested)
        #expect(parsed.value("customer") == nil)
    }

    @Test("help asked for anywhere wins over a mistake on the same line")
    func helpWinsOverMistakes() throws {
        #expect(try syntax.parse(["dir", "status", "--quantity", "3", "-h"]).helpRequested)
    }

    @Test("--name=value gives a value, even one that starts with a dash")
    func inlineValues() throws {
        let parsed = try syntax.parse(["dir", "buy", "x", "--customer=--help", "--quantity=2"])
        #expect(parsed.value("customer") == "--help")
        #expect(parsed.value("quantity") == "2")
        #expect(!parsed.helpRequested)
    }

    @Test("a flag given a value is refused")
    func flagWithValueIsRefused() {
        #expect(mistake(["dir", "status", "--json=yes"]) == "option '--json' takes no value")
    }

    @Test("a repeatable option keeps every value in order; a single one keeps the last")
    func repeatedOptions() throws {
        let parsed = try syntax.parse(["dir", "--root", "a.pem", "buy", "x", "--root", "b.pem",
                                       "--quantity", "1", "--quantity", "2"])
        #expect(parsed.values("root") == ["a.pem", "b.pem"])
        #expect(parsed.value("quantity") == "2")
    }

    @Test("a lone dash is a positional, and may be an option's value")
    func dashIsAPositional() throws {
        let parsed = try syntax.parse(["-", "--ledger", "-", "status"])
        #expect(parsed.positionals == ["-", "status"])
        #expect(parsed.value("ledger") == "-")
    }

    @Test("-- ends the options: what follows is positional, --help included")
    func doubleDashEndsOptions() throws {
        let parsed = try syntax.parse(["dir", "buy", "--", "--help", "-x"])
        #expect(parsed.positionals == ["dir", "buy", "--help", "-x"])
        #expect(!parsed.helpRequested)
    }

    @Test("options may come before the subcommand, and a negative number is a value")
    func optionsBeforeTheSubcommand() throws {
        let parsed = try syntax.parse(["dir", "--ledger", "l.sqlite", "--json", "buy", "x", "--quantity", "-1"])
        #expect(parsed.subcommand?.name == "buy")
        #expect(parsed.positionals == ["dir", "buy", "x"])
        #expect(parsed.flag("json"))
        #expect(parsed.value("quantity") == "-1")
    }

    @Test("a single dash option is refused")
    func shortOptionIsRefused() {
        #expect(mistake(["dir", "status", "-q"]) == "unknown option '-q'")
    }
}
