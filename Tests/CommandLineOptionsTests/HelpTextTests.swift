import CommandLineOptions
import Testing

/// The "Options:" lines ``HelpText`` writes from declarations.
@Suite struct HelpTextTests {
    @Test("each option's label and help share a line, helps aligned, long helps wrapped under the first")
    func optionsAreAlignedAndWrapped() {
        let text = HelpText.options([
            .flag("json", help: "Print JSON."),
            .value("input", "FILE", help: String(repeating: "word ", count: 30)),
        ])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "  --json        Print JSON.")
        #expect(lines[1].hasPrefix("  --input FILE  word word"))
        #expect(lines.count > 2)
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix(String(repeating: " ", count: 16) + "word") })
        #expect(lines.allSatisfy { $0.count <= HelpText.width })
    }

    @Test("a label too long for the column puts its help on the next line")
    func longLabelsGetTheirOwnLine() {
        let text = HelpText.options([
            .flag("json", help: "Print JSON."),
            .value("a-very-long-option-name", "VALUE", help: "Does things."),
        ])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1] == "  --a-very-long-option-name VALUE")
        #expect(lines[2].drop(while: { $0 == " " }) == "Does things.")
    }

    @Test("a subcommand's usage line shows its arguments and each option in brackets")
    func subcommandUsage() {
        let buy = Subcommand("buy", arguments: "PRODUCT", summary: "Buy.", options: [
            .value("quantity", "N", help: "How many."), .flag("json", help: "JSON."),
        ])
        #expect(buy.usage == "buy PRODUCT [--quantity N] [--json]")
    }

    @Test("a subcommand's own help has its usage line, its summary and each option it takes once")
    func subcommandHelpIsItsOwn() {
        let ledger = CommandOption.value("ledger", "URL", help: "The ledger. Required.")
        let since = Subcommand("reconcile", arguments: "DIR", summary: "Catch up with the App Store.", options: [
            ledger, .value("since", "TIME", help: "From this time."),
        ])
        let text = HelpText.subcommand(since, invocation: "storerules ledger", commandOptions: [ledger, .flag("json", help: "JSON.")])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Usage: storerules ledger reconcile DIR [options]")
        #expect(lines[2] == "Catch up with the App Store.")
        #expect(lines.filter { $0.hasPrefix("  --ledger URL") }.count == 1, "an option both declare is listed once")
        #expect(lines.contains { $0.hasPrefix("  --since TIME") && $0.hasSuffix("From this time.") })
        #expect(lines.contains { $0.hasPrefix("  --json") })
        #expect(lines.last == "Run 'storerules ledger --help' for the other commands and what they share.")
    }
}
