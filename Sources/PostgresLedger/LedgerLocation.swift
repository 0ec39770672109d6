import StoreCore

/// Where a ledger is, as `--ledger` takes it: a `postgres://` or `postgresql://` URL for a
/// PostgreSQL database, anything else a SQLite file's path.
public enum LedgerLocation: Sendable, Hashable {
    /// A SQLite file, created when missing.
    case sqlite(path: String)
    /// A PostgreSQL database.
    case postgres(url: String)

    /// Reads `text` as a location.
    public init(_ text: String) {
        let lowered = text.lowercased()
        self = lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") ? .postgres(url: text) : .sqlite(path: text)
    }

    /// Opens the ledger here, bringing its schema up to date.
    public func open() throws -> Ledger {
        switch self {
        case .sqlite(let path): try Ledger(path: path)
        case .postgres(let url): Ledger(storage: try PostgresLedgerStorage(url: url))
        }
    }

    /// The location as `--ledger` takes it: the path or the URL.
    public var text: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): url
        }
    }

    /// The location as people wrote it, without a password a URL carries.
    public var displayName: String {
        switch self {
        case .sqlite(let path):
            return path
        case .postgres(let url):
            guard let at = url.lastIndex(of: "@"), let scheme = url.range(of: "://"),
                  let colon = url[scheme.upperBound..<at].firstIndex(of: ":")
            else { return url }
            return String(url[..<colon]) + ":***" + String(url[at...])
        }
    }
}
