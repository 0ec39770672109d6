/// What a command accepts after its name: its options and, optionally, subcommands with
/// options of their own.
///
/// The rules, for every command alike:
/// - `--name VALUE` and `--name=VALUE` give a value; a single-value option given twice keeps
///   the last, a repeatable one keeps every value in order.
/// - An argument that looks like an option (it starts with `-` and is neither `-` nor a
///   negative number) is never taken as the value of the option before it: `--customer --help`
///   asks for help, `--customer --json` is a missing value. Write `--customer=-x` for a value
///   that starts with `-`.
/// - `--help` or `-h` anywhere before `--` asks for help, whatever else is wrong.
/// - `-` alone is a positional (standard input, where a command reads a file).
/// - `--` ends the options: everything after it is a positional.
/// - An unknown option is an error that suggests the nearest known name; an option of another
///   subcommand is an error naming the subcommand given.
public struct CommandSyntax: Sendable {
    /// The command's name, as error messages name it (`store`).
    public let commandName: String
    /// The options every form of the command takes.
    public let options: [CommandOption]
    /// The subcommands; empty for a command without any.
    public let subcommands: [Subcommand]
    /// Which positional names the subcommand (0 for the first).
    public let subcommandPosition: Int

    /// A command named `commandName` taking `options`, and `subcommands` named by the
    /// positional at `subcommandPosition`.
    public init(_ commandName: String, options: [CommandOption], subcommands: [Subcommand] = [],
                subcommandPosition: Int = 0) {
        self.commandName = commandName
        self.options = options
        self.subcommands = subcommands
        self.subcommandPosition = subcommandPosition
    }

    /// The subcommand called `name`.
    public func subcommand(named name: String) -> Subcommand? {
        subcommands.first { $0.name == name }
    }

    /// The options of the command and of every subcommand.
    var allOptions: [CommandOption] {
        options + subcommands.flatMap(\.options)
    }
}
