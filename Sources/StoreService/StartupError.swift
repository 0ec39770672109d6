/// Why the service could not start; printed as one line.
public struct StartupError: Error {
    public let message: String
    public init(_ message: String) { self.message = message }
}
