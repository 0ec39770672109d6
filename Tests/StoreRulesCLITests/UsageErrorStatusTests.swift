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
}
