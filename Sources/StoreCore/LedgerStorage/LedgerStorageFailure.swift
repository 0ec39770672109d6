/// A failure of a ledger's storage, described without the storage's own types: what kind of
/// failure it is, so that a caller decides from the kind (try again, refuse, report), in one
/// line, and the storage's own error beneath it.
public struct LedgerStorageFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure a storage met.
    public enum Kind: Hashable, Sendable {
        /// It may pass (a busy or unreachable database, a lost connection, a serialization
        /// failure): a caller may try again later, and a service answers 503.
        case transient
        /// A uniqueness rule refused a duplicate of `key`: another writer holds the value.
        case uniqueViolation(UniqueKey)
        /// It fails again the same way (a broken schema, a refused statement).
        case permanent
    }

    /// The table and columns of a uniqueness rule, as a storage names them.
    public struct UniqueKey: Hashable, Sendable, CustomStringConvertible {
        /// The table, such as `customer`.
        public let table: String
        /// The columns, such as `["app_account_token"]`.
        public let columns: [String]

        /// Names a uniqueness rule.
        public init(table: String, columns: [String]) {
            self.table = table
            self.columns = columns
        }

        /// `table(column, …)`.
        public var description: String { "\(table)(\(columns.joined(separator: ", ")))" }
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// What failed, in one line, as the storage said it.
    public let message: String
    /// The storage's own error, when one was thrown.
    public let underlyingError: (any Error)?

    /// Whether the failure may pass: a caller may try again later.
    public var isTransient: Bool { kind == .transient }

    /// Describes a failure of `kind`.
    public init(kind: Kind, message: String, underlyingError: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.underlyingError = underlyingError
    }

    /// Describes a failure the ledger found itself, transient or permanent.
    public init(message: String, isTransient: Bool) {
        self.init(kind: isTransient ? .transient : .permanent, message: message)
    }

    /// Describes any error a storage threw: one that classifies itself
    /// (``LedgerStorageErrorClassifying``) is taken at its word; any other is permanent.
    public init(_ error: any Error) {
        if let failure = error as? LedgerStorageFailure {
            self = failure
            return
        }
        self.init(kind: (error as? any LedgerStorageErrorClassifying)?.ledgerFailureKind ?? .permanent,
                  message: String(describing: error), underlyingError: error)
    }

    /// The failure's message.
    public var description: String { message }

    /// Failures are equal by kind and message; the underlying errors are not compared.
    public static func == (lhs: LedgerStorageFailure, rhs: LedgerStorageFailure) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(message)
    }
}

/// An error of a database library that says what kind of ledger storage failure it is.
public protocol LedgerStorageErrorClassifying: Error {
    /// The kind of failure: transient, a uniqueness rule refusing a duplicate, or permanent.
    var ledgerFailureKind: LedgerStorageFailure.Kind { get }
}
