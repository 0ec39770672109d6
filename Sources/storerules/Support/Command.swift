/// One `storerules` subcommand.
protocol Command {
    /// The subcommand's name, as typed.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full `--help` text.
    static var help: String { get }
    /// Runs the command with the arguments after its name; returns the exit status.
    static func run(_ arguments: [String]) async throws -> Int32
}
