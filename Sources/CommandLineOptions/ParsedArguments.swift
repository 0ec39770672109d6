/// A command line split by a ``CommandSyntax``: positionals, option values and flags.
public struct ParsedArguments: Sendable {
    /// The arguments that are not options, in order; for a command with subcommands, the
    /// subcommand's name among them.
    public internal(set) var positionals: [String] = []
    /// The subcommand named, if the command has subcommands and one was named.
    public internal(set) var subcommand: Subcommand?
    /// Whether `--help` or `-h` was given as an option.
    public internal(set) var helpRequested = false
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// The last value of option `name`, if given.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of option `name`, in order.
    public func values(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether flag `name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Whether the flag `option` declares was given.
    public func flag(_ option: CommandOption) -> Bool { flags.contains(option.name) }

    /// The names of the options and flags given, sorted.
    public var givenOptionNames: [String] { (Array(values.keys) + flags).sorted() }

    /// The positional at `index`, or a usage error saying `what` is missing.
    public func positional(_ index: Int, _ what: String) throws(UsageError) -> String {
        guard index < positionals.count else { throw UsageError("missing \(what)") }
        return positionals[index]
    }

    /// Fails when more than `count` positionals were given.
    public func expectPositionals(atMost count: Int) throws(UsageError) {
        if positionals.count > count {
            throw UsageError("unexpected argument '\(positionals[count])'")
        }
    }
}
