import PostgresLedger
import StoreCore
import SQLiteLedger
import StoreService

/// Where a ledger is, as `--ledger` takes it: a `postgres://` or `postgresql://` URL for a
/// PostgreSQL database, or a SQLite file's path — plain (`ledger.sqlite`, `./data/ledger`,
/// `/var/lib/storerules/ledger.sqlite`) or written `sqlite:PATH`. A value that looks like
/// anything else (another scheme, `user@host`, libpq's `host=… dbname=…` pairs) is refused
/// with the reason, so an instance of a fleet never grants from a private SQLite file named
/// after a mistyped URL. Here the executables compose the storages: the service opens either
/// through ``StoreService/ServiceLedgerSource``.
public enum LedgerLocation: ServiceLedgerSource, Hashable {
    /// A SQLite file, created when missing.
    case sqlite(path: String)
    /// A PostgreSQL database.
    case postgres(url: String)

    /// Reads `text` as a location.
    ///
    /// - Throws: ``LedgerLocationError`` for an empty value, a scheme other than `postgres://`,
    ///   `postgresql://` and `sqlite:`, a `user@host` form, or key/value connection pairs.
    public init(_ text: String) throws(LedgerLocationError) {
        self = try Self.parse(text)
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

    /// `text` with every password in it replaced by `***`: the one in `user:password@` of a URL
    /// (whatever its scheme, spelt right or not, with `//` or without), and the value of a
    /// `password=` or `passwd=` pair in a URL's query or a key/value connection string, so a
    /// location can be printed, in a message or an error, without its secret.
    public static func maskingPasswords(in text: String) -> String {
        maskingKeyValuePasswords(in: maskingUserInfoPasswords(in: text))
    }

    /// The characters that end a location written inside a longer text.
    private static let locationEnd: Set<Character> = [" ", "\t", "\n", "\"", "'", "(", ")", "<", ">", ","]

    /// Masks the password of every `user:password@host` in `text`: each `@` whose word holds a
    /// `:` before it hides what lies between the last such `:` (after any `scheme://`) and the `@`.
    private static func maskingUserInfoPasswords(in text: String) -> String {
        var characters = Array(text)
        var index = characters.startIndex
        while index < characters.endIndex {
            guard characters[index] == "@" else {
                index += 1
                continue
            }
            var wordStart = index
            while wordStart > characters.startIndex, !locationEnd.contains(characters[wordStart - 1]) { wordStart -= 1 }
            var userInfoStart = wordStart
            if let scheme = Self.range(of: "://", in: characters, from: wordStart, to: index) { userInfoStart = scheme }
            if let colon = characters[userInfoStart..<index].lastIndex(of: ":"), colon + 1 < index,
               characters[(colon + 1)..<index] != ["*", "*", "*"] {
                characters.replaceSubrange((colon + 1)..<index, with: Array("***"))
                index = colon + 4
            }
            index += 1
        }
        return String(characters)
    }

    /// The index just past the first `pattern` in `characters[start..<end]`.
    private static func range(of pattern: String, in characters: [Character], from start: Int, to end: Int) -> Int? {
        let pattern = Array(pattern)
        guard end - start >= pattern.count else { return nil }
        for position in start...(end - pattern.count) where Array(characters[position..<(position + pattern.count)]) == pattern {
            return position + pattern.count
        }
        return nil
    }

    /// Masks the value of every `password=` and `passwd=` pair, in any case.
    private static func maskingKeyValuePasswords(in text: String) -> String {
        var result = ""
        var remaining = Substring(text)
        while let found = ["password=", "passwd="].compactMap({ remaining.range(of: $0, options: .caseInsensitive) })
            .min(by: { $0.lowerBound < $1.lowerBound }) {
            result += remaining[..<found.upperBound] + "***"
            remaining = remaining[found.upperBound...]
            if remaining.first == "'" {
                let closing = remaining.dropFirst().firstIndex(of: "'").map { remaining.index(after: $0) } ?? remaining.endIndex
                remaining = remaining[closing...]
            } else {
                remaining = remaining[(remaining.firstIndex { "& \t\n\"'".contains($0) } ?? remaining.endIndex)...]
            }
        }
        return result + remaining
    }
}
