/// A mistake in how a command was called: the program prints it with a pointer to `--help`
/// and exits with status 64.
public struct UsageError: Error, Equatable, Sendable {
    /// The mistake, in one line.
    public let message: String

    /// A usage error saying `message`.
    public init(_ message: String) { self.message = message }
}
