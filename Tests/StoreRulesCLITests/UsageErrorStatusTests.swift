import Foundation
import Testing

/// Every mistake in how a command is called exits with 64 and points to the command's help,
/// whichever command it is and wherever in the command the mistake is found.
@Suite struct UsageErrorStatusTests {
    static let birds = "Examples/BackyardBirds"

    @Test("a usage mistake exits 64 with a pointer to --help", arguments: [
        ["diff", birds],
        ["diff", birds, birds, "--limit", "many"],
        ["diff", birds, birds, birds],
        ["ledger"],
        ["ledger", "check"],
        ["appstore", "transaction", "1"],
        ["eval", birds],
        ["serve", birds],
        ["store", birds, "purchase"],
        ["policy", "list"],
        ["verify"],
        ["nonsense"],
    ])
    func usageMistakeExits64(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.standardError)")
        #expect(result.standardError.contains("--help"), "\(arguments): \(result.standardError)")
    }

    @Test("a usage mistake in a subcommand points to the subcommand's own help")
    func subcommandMistakePointsToItsHelp() throws {
        let ledger = try CommandRunner.run(["ledger", "check"])
        #expect(ledger.status == 64)
        #expect(ledger.standardError == "storerules ledger: missing --ledger URL\nRun 'storerules ledger check --help' for usage.\n")
        let appStore = try CommandRunner.run(["appstore", "transaction", "1"])
        #expect(appStore.standardError.hasSuffix("\nRun 'storerules appstore transaction --help' for usage.\n"), "\(appStore.standardError)")
        let unknown = try CommandRunner.run(["ledger", "chek", "--ledger", "x.sqlite"])
        #expect(unknown.standardError.hasSuffix("\nRun 'storerules ledger --help' for usage.\n"), "\(unknown.standardError)")
    }
}
