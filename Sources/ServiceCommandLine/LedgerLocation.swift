import PostgresLedger
import StoreCore
import StoreService

/// Where a ledger is, as `--ledger` takes it: a `postgres://` or `postgresql://` URL for a
/// PostgreSQL database, anything else a SQLite file's path. Here the executables compose the
/// storages: the service opens either through ``StoreService/ServiceLedgerSource``.
public enum LedgerLocation: ServiceLedgerSource, Hashable {
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

    public func openLedger() throws -> Ledger {
        try open()
    }

    public func printable(_ error: any Error) -> String {
        Self.maskingPasswords(in: "\(error)")
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
        case .sqlite(let path): path
        case .postgres(let url): Self.maskingPasswords(in: url)
        }
    }

    /// `text` with every password of a PostgreSQL URL in it replaced by `***`: the one in
    /// `user:password@` and the value of a `password=` parameter, so a URL can be printed,
    /// in a message or an error, without its secret.
    public static func maskingPasswords(in text: String) -> String {
        var masked = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            masked += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { "/?# \t\n\"'".contains($0) } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                masked += authority[...colon] + "***" + authority[at...]
                rest = rest[authorityEnd...]
            }
        }
        masked += rest
        var result = ""
        var remaining = Substring(masked)
        while let found = remaining.range(of: "password=", options: .caseInsensitive) {
            result += remaining[..<found.upperBound] + "***"
            remaining = remaining[found.upperBound...]
            remaining = remaining[(remaining.firstIndex { "& \t\n\"'".contains($0) } ?? remaining.endIndex)...]
        }
        return result + remaining
    }
}
