/// A subcommand of a command, such as `store purchase`, with the options only it takes.
public struct Subcommand: Sendable {
    /// The word that names it.
    public let name: String
    /// Its arguments after the name, as its usage line writes them (`PRODUCT`, `on|off`).
    public let arguments: String
    /// What it does, in one or more sentences; help wraps it.
    public let summary: String
    /// The options it takes besides its command's own.
    public let options: [CommandOption]

    /// A subcommand named `name`.
    public init(_ name: String, arguments: String = "", summary: String, options: [CommandOption] = []) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        self.options = options
    }

    /// The usage line: name, arguments, and each option in brackets.
    public var usage: String {
        ([name, arguments].filter { !$0.isEmpty } + options.map { "[\($0.label)]" }).joined(separator: " ")
    }
}
