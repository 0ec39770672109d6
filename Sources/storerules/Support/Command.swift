import CommandLineOptions

/// One `storerules` subcommand.
protocol Command {
    /// The subcommand's name, as typed.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The options (and subcommands) it takes, declared once for its parser and its help.
    static var syntax: CommandSyntax { get }
    /// The full `--help` text.
    static var help: String { get }
    /// The words a usage line writes before a subcommand's name (`storerules ledger`).
    static var subcommandInvocation: String { get }
    /// Runs the command with its parsed arguments; returns the exit status.
    static func run(_ parsed: ParsedArguments) async throws -> Int32
}

extension Command {
    static var subcommandInvocation: String { "storerules \(name)" }

    /// The `--help` of `subcommand` alone: its usage, summary and options.
    static func help(for subcommand: Subcommand) -> String {
        HelpText.subcommand(subcommand, invocation: subcommandInvocation, commandOptions: syntax.options)
    }
}
