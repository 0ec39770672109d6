/// Why the service could not start; printed as one line.
public struct StartupError: Error {
    /// What could not be loaded, in one line.
    public let message: String
    /// Describes a startup failure.
    public init(_ message: String) { self.message = message }
}
