/// The parts of a `--help` text that come from a ``CommandSyntax``'s declarations.
public enum HelpText {
    /// The width help text wraps at.
    public static let width = 92

    /// One line per option, its label then its help, wrapped beside a common column; a label
    /// too long for the column puts its help on the lines below.
    public static func options(_ options: [CommandOption], indent: Int = 2) -> String {
        entries(options.map { ($0.label, $0.help) }, indent: indent)
    }

    /// One entry per subcommand, its usage line then its summary, wrapped beside a common
    /// column.
    public static func subcommands(_ subcommands: [Subcommand], indent: Int = 2) -> String {
        entries(subcommands.map { ($0.usage, $0.summary) }, indent: indent, column: 32)
    }

    /// Each subcommand's entry with, below it, the options only it takes: those not named in
    /// `explainedOnce`, which the help explains once for every subcommand.
    public static func subcommands(_ subcommands: [Subcommand], ownOptionsBesides explainedOnce: Set<String>) -> String {
        subcommands.map { subcommand in
            let own = subcommand.options.filter { !explainedOnce.contains($0.name) }
            return Self.subcommands([subcommand]) + (own.isEmpty ? "" : "\n" + options(own, indent: 6))
        }.joined(separator: "\n")
    }

    /// The `--help` of one subcommand: its usage line after `invocation` (the words before the
    /// subcommand's name, `storerules ledger`), its summary, and every option it takes —
    /// `commandOptions`, which each form of the command takes, then its own — ending with the
    /// pointer to the whole command's help.
    public static func subcommand(_ subcommand: Subcommand, invocation: String, commandOptions: [CommandOption] = []) -> String {
        var seen: Set<String> = []
        let options = (commandOptions + subcommand.options).filter { seen.insert($0.name).inserted }
        let usage = ["Usage:", invocation, subcommand.name, subcommand.arguments, options.isEmpty ? "" : "[options]"]
            .filter { !$0.isEmpty }.joined(separator: " ")
        let sections = [usage, wrap(subcommand.summary, width: width).joined(separator: "\n")]
            + (options.isEmpty ? [] : ["Options:\n" + Self.options(options)])
            + ["Run '\(invocation) --help' for the other commands and what they share."]
        return sections.joined(separator: "\n\n")
    }

    /// Labels and their texts: each text wrapped at ``width`` from `column` on.
    static func entries(_ entries: [(label: String, text: String)], indent: Int, column: Int? = nil) -> String {
        let longest = entries.map(\.label.count).max() ?? 0
        let column = column ?? min(indent + longest + 2, indent + 22)
        let margin = String(repeating: " ", count: column)
        return entries.flatMap { entry -> [String] in
            let lead = String(repeating: " ", count: indent) + entry.label
            let wrapped = wrap(entry.text, width: width - column)
            if lead.count + 2 > column {
                return wrap(entry.label, width: width - indent, continuation: "  ").map { String(repeating: " ", count: indent) + $0 }
                    + wrapped.map { margin + $0 }
            }
            return wrapped.enumerated().map { index, line in
                (index == 0 ? lead + String(repeating: " ", count: column - lead.count) : margin) + line
            }
        }.joined(separator: "\n")
    }

    /// `text`'s words in lines of at most `width` characters; lines after the first start
    /// with `continuation`.
    static func wrap(_ text: String, width: Int, continuation: String = "") -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let prefix = lines.isEmpty ? "" : continuation
            if !line.isEmpty, prefix.count + line.count + 1 + word.count > width {
                lines.append((lines.isEmpty ? "" : continuation) + line)
                line = String(word)
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append((lines.isEmpty ? "" : continuation) + line) }
        return lines
    }
}
