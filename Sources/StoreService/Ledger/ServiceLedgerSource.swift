import StoreCore
import SQLiteLedger

/// Where a ``Service`` finds its ledger: opened when the service starts, after every other
/// option is checked, so a mistake in them leaves no ledger file behind.
///
/// The service takes its storage through this protocol and links no database client beyond
/// `StoreCore`'s SQLite: ``SQLiteLedgerFile`` is a SQLite file, and an executable composes
/// any other storage (`storerules serve` takes a PostgreSQL URL through `ServiceCommandLine`'s
/// `LedgerLocation`).
public protocol ServiceLedgerSource: Sendable {
    /// The ledger as people named it, without a secret it carries (a password in a URL).
    var displayName: String { get }

    /// Opens the ledger, bringing its schema up to date.
    func openLedger() throws -> Ledger

    /// A failure to open the ledger as it may be printed: without a secret it carries.
    func printable(_ error: any Error) -> String
}

/// A SQLite ledger file, created when missing.
public struct SQLiteLedgerFile: ServiceLedgerSource, Hashable {
    /// The file's path.
    public let path: String

    /// The ledger file at `path`.
    public init(path: String) {
        self.path = path
    }

    public var displayName: String { path }

    public func openLedger() throws -> Ledger {
        try Ledger(path: path)
    }

    public func printable(_ error: any Error) -> String {
        "\(error)"
    }
}
