import Foundation
import Testing

/// `--help` after a subcommand prints that subcommand's help, and the App Store Server API's
/// key options say "Required." only where the command cannot run without them.
@Suite struct SubcommandHelpTests {
    /// The help `arguments` print, which must exit 0.
    static func help(_ arguments: [String]) throws -> String {
        let result = try CommandRunner.run(arguments + ["--help"])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput
    }

    /// The help text of `--name` in `help`: its label's line and the lines below it up to the next option.
    static func optionHelp(_ name: String, in help: String) -> String {
        let lines = help.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--\(name) ") }) else { return "" }
        let rest = lines[(start + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
        return ([lines[start]] + rest).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    @Test("ledger reconcile --help is reconcile's own: its usage, summary and options, no other ledger command")
    func reconcileHelpIsItsOwn() throws {
        let text = try Self.help(["ledger", "reconcile"])
        #expect(text.hasPrefix("Usage: storerules ledger reconcile DIR [options]\n"), "\(text)")
        #expect(text.contains("Catch up with the App Store after missed notifications"))
        #expect(text.contains("--since TIME"))
        #expect(!text.contains("Copy every record") && !text.contains("ledger ingest") && !text.contains("--incident"), "\(text)")
        #expect(text.contains("Run 'storerules ledger --help'"))
        let store = try Self.help(["store", "Examples/BackyardBirds", "purchase"])
        #expect(store.hasPrefix("Usage: storerules store DIR purchase PRODUCT [options]\n"), "\(store)")
        #expect(try Self.help(["ledger"]).contains("Copy every record"), "the command's help still lists every command")
    }

    @Test("the App Store key options are Required where the command needs them and optional where it does not")
    func keyOptionsSayWhetherTheyAreRequired() throws {
        for arguments in [["serve"], ["ledger", "ingest"]] {
            let text = try Self.help(arguments)
            for name in ["app-store-key", "app-store-key-id", "app-store-issuer-id"] {
                let option = Self.optionHelp(name, in: text)
                #expect(!option.isEmpty && !option.contains("Required."), "\(arguments) --\(name): \(option)")
            }
            #expect(Self.optionHelp("app-store-key", in: text).contains("Optional"), "\(arguments)")
        }
        for arguments in [["ledger", "reconcile"], ["appstore", "transaction"]] {
            let text = try Self.help(arguments)
            for name in ["app-store-key", "app-store-key-id", "app-store-issuer-id"] {
                #expect(Self.optionHelp(name, in: text).hasSuffix("Required."), "\(arguments) --\(name)")
            }
        }
    }
}
