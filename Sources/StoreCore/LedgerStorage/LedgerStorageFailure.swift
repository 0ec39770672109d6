/// Why a ledger storage failed, as ``LedgerError/storage(_:)`` reports it.
public struct LedgerStorageFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, in one line, as the storage said it.
    public let message: String
    /// Whether the failure may pass (a busy or unreachable database, a lost connection, a
    /// serialization failure): a caller may try again later, and a service answers 503.
    public let isTransient: Bool

    /// Describes a failure.
    public init(message: String, isTransient: Bool) {
        self.message = message
        self.isTransient = isTransient
    }

    /// Describes any error a storage threw: one that says whether it is transient
    /// (``TransientFailureReporting``) is taken at its word; any other is permanent.
    public init(_ error: any Error) {
        message = String(describing: error)
        isTransient = (error as? any TransientFailureReporting)?.isTransient ?? false
    }

    public var description: String { message }
}

/// An error that knows whether it may pass on its own, such as a busy database.
public protocol TransientFailureReporting: Error {
    /// Whether trying again later may succeed.
    var isTransient: Bool { get }
}
