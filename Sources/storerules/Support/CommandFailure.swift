/// A failure while running a command; printed as one line, with exit status 1.
struct CommandFailure: Error {
    /// The failure, in one line.
    let message: String

    /// A failure saying `message`.
    init(_ message: String) { self.message = message }
}
