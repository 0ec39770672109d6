import CommandLineOptions
import TextMatching

extension LedgerLocation {
    /// The schemes `--ledger` takes.
    static let schemes = ["postgres", "postgresql", "sqlite"]

    /// Keywords of libpq's key/value connection strings, which `--ledger` does not take.
    private static let connectionKeywords = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passwd", "sslmode", "service", "options", "connect_timeout",
    ]

    /// `text`, given to `option`, read as ``init(_:)`` says; a scheme in capitals is written in
    /// lower case, as libpq reads it.
    static func parse(_ text: String, option: String = "--ledger") throws(LedgerLocationError) -> LedgerLocation {
        let lowered = text.lowercased()
        for scheme in ["postgres://", "postgresql://"] where lowered.hasPrefix(scheme) {
            return .postgres(url: scheme + text.dropFirst(scheme.count))
        }
        if lowered.hasPrefix("sqlite:") {
            var path = Substring(text.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = path.dropFirst(2) }
            guard !path.isEmpty else { throw LedgerLocationError("\(option) '\(text)' names no file: write sqlite:PATH, such as sqlite:ledger.sqlite") }
            return .sqlite(path: String(path))
        }
        if text.hasPrefix("/") || text.hasPrefix("./") || text.hasPrefix("../") {
            return .sqlite(path: text)
        }
        guard !text.trimmingWhitespace.isEmpty else {
            throw LedgerLocationError("\(option) is empty: give a SQLite file's path or a postgresql:// URL")
        }
        let plain = "for a SQLite file of that name, write it after ./ or sqlite:"
        let pairKeys = lowered.split(whereSeparator: \.isWhitespace).compactMap { word in
            word.firstIndex(of: "=").map { String(word[..<$0]) }
        }
        if let keyword = pairKeys.first(where: connectionKeywords.contains) {
            throw LedgerLocationError(
                "\(option) '\(text)' is a key/value connection string ('\(keyword)=…'), which \(option) does not take: write it as a URL, "
                    + "postgresql://USER@HOST:PORT/DBNAME (the password after USER and a colon, or in PGPASSWORD or ~/.pgpass)")
        }
        if let scheme = Self.scheme(of: text) {
            let hint = NearestName.nearest(to: scheme.lowercased(), in: schemes).map { nearest in
                nearest == "sqlite" ? "did you mean sqlite:PATH? " : "did you mean \(nearest)://…? "
            } ?? ""
            throw LedgerLocationError(
                "\(option) '\(text)' begins with the scheme '\(scheme):', which is neither postgres://, postgresql:// nor sqlite:; "
                    + hint + plain)
        }
        if text.contains("@") {
            throw LedgerLocationError(
                "\(option) '\(text)' looks like USER@HOST, not a file: a PostgreSQL location is a URL, postgresql://USER@HOST/DBNAME; "
                    + plain)
        }
        return .sqlite(path: text)
    }

    /// The scheme `text` begins with (letters, then letters, digits, `+`, `-` or `.`, then `:`).
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        let candidate = text[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
              candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(candidate)
    }
}

private extension String {
    /// The text without white space around it.
    var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}

extension LedgerLocation {
    /// `text`, given to the command-line option `option`, read as ``init(_:)`` says; a refusal
    /// is a usage error naming that option.
    public static func option(_ text: String, named option: String = "--ledger") throws(UsageError) -> LedgerLocation {
        do {
            return try parse(text, option: option)
        } catch {
            throw UsageError(error.description)
        }
    }
}
