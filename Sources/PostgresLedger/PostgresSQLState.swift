/// A five-character SQLSTATE code the server reports with an error, such as `23505`
/// (unique_violation).
///
/// The first two characters are the code's class: `08` connection exceptions, `23` integrity
/// constraint violations, `40` transaction rollbacks, `42` syntax errors and access rule
/// violations, `57` operator intervention.
public struct PostgresSQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The five characters, as the server sent them.
    public let rawValue: String

    /// Wraps an SQLSTATE code.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The code's class: its first two characters.
    public var codeClass: String {
        String(rawValue.prefix(2))
    }

    /// Whether the same work may succeed when run again from the start: a serialization
    /// failure, a deadlock, a connection exception (class `08`, except `08P01`: a message the
    /// server could not read, such as a wrong number of parameters, fails again the same way),
    /// or the server shutting down, crashing or starting up (`57P01`, `57P02`, `57P03`).
    public var isTransient: Bool {
        (codeClass == "08" && self != .protocolViolation) || Self.transientCodes.contains(self)
    }

    /// The code itself.
    public var description: String {
        rawValue
    }

    /// The codes outside class `08` that ``isTransient`` accepts.
    private static let transientCodes: Set<PostgresSQLState> = [
        .serializationFailure, .deadlockDetected, .adminShutdown, .crashShutdown, .cannotConnectNow,
    ]

    /// `40001`: a serializable transaction conflicted with a concurrent one.
    public static let serializationFailure = PostgresSQLState(rawValue: "40001")
    /// `40P01`: the transaction was chosen as a deadlock's victim.
    public static let deadlockDetected = PostgresSQLState(rawValue: "40P01")
    /// `57P01`: an administrator terminated the session or shut the server down.
    public static let adminShutdown = PostgresSQLState(rawValue: "57P01")
    /// `57P02`: another server process crashed and the server is restarting.
    public static let crashShutdown = PostgresSQLState(rawValue: "57P02")
    /// `57P03`: the server is starting up or shutting down and accepts no connection yet.
    public static let cannotConnectNow = PostgresSQLState(rawValue: "57P03")
    /// `08P01`: the server could not make sense of a message, such as a statement given the
    /// wrong number of parameters.
    public static let protocolViolation = PostgresSQLState(rawValue: "08P01")
    /// `23505`: a unique constraint or index refused a duplicate.
    public static let uniqueViolation = PostgresSQLState(rawValue: "23505")
    /// `42601`: the SQL does not parse.
    public static let syntaxError = PostgresSQLState(rawValue: "42601")
}
