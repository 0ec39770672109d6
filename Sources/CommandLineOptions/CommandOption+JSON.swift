extension CommandOption {
    /// The name of `--json`, for help that explains it once for several subcommands.
    public static let jsonName = "json"

    /// `--json`: print JSON instead of text. Every command that can print JSON takes it
    /// through this one declaration, with `help` saying what its JSON holds; commands read it
    /// with ``ParsedArguments/printsJSON``.
    public static func json(help: String) -> CommandOption {
        .flag(jsonName, help: help)
    }
}

extension ParsedArguments {
    /// Whether `--json` was given: the command prints JSON instead of text.
    public var printsJSON: Bool { flag(CommandOption.jsonName) }
}
