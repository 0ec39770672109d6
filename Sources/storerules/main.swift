import CommandLineOptions
import Foundation
import StoreService

/// The subcommands, in the order `storerules --help` lists them.
let commands: [any Command.Type] = [
    RunCommand.self, CatalogCommand.self, EvalCommand.self, TestCommand.self, DiffCommand.self, StorefrontCommand.self,
    ExperimentsCommand.self, REPLCommand.self, VerifyCommand.self, StoreCommand.self, LedgerCommand.self, AppStoreCommand.self,
    ServeCommand.self, EventsCommand.self, PolicyCommand.self, BenchCommand.self,
]

let usage = """
storerules — a purchase rules engine whose business policy is written in Lua.

Usage: storerules <command> [arguments]

Commands:
\(commands.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

Run 'storerules <command> --help' for a command's arguments.
"""

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, !["--help", "-h", "help"].contains(name) else {
    if arguments.isEmpty {
        Output.error(usage)
        exit(64)
    }
    Output.line(usage)
    exit(0)
}
guard let command = commands.first(where: { $0.name == name }) else {
    Output.error("storerules: unknown command '\(name)'. Run 'storerules --help' for the list.")
    exit(64)
}
// The subcommand named, once the arguments are parsed: a usage error points to its own help.
var subcommand: Subcommand?
/// A failure as printed: one line for `serve`, whose standard error is a service's log, as
/// it wrote as it ran; as it is for a command people read at a terminal.
func failureLine(_ text: String) -> String {
    name == "serve" ? text.asLogLine : text
}

do {
    let parsed = try command.syntax.parse(Array(arguments.dropFirst()))
    subcommand = parsed.subcommand
    if parsed.helpRequested {
        Output.line(parsed.subcommand.map(command.help(for:)) ?? command.help)
        exit(0)
    }
    exit(try await command.run(parsed))
} catch let error as UsageError {
    let help = subcommand.map { "\(command.subcommandInvocation) \($0.name) --help" } ?? "storerules \(name) --help"
    Output.error("storerules \(name): \(error.message)\nRun '\(help)' for usage.")
    exit(64)
} catch let error as CommandFailure {
    Output.error(failureLine("storerules \(name): \(error.message)"))
    exit(1)
} catch {
    Output.error(failureLine("storerules \(name): \(error)"))
    exit(1)
}
