extension AppStoreEnvironment {
    /// The known environment `spelling` names in any letter case, with or without `_` or `-`
    /// between words (`sandbox`, `XCODE`, `LocalTesting`, `local_testing`), or `nil` when it
    /// names none: the one reading of an environment that people type, on command lines and
    /// in hand-written JSON.
    public init?(spelling: String) {
        let folded = Self.folded(spelling)
        guard let known = Self.knownValues.first(where: { Self.folded($0.rawValue) == folded }) else {
            return nil
        }
        self = known
    }

    /// `text` in lower case without word separators.
    private static func folded(_ text: String) -> String {
        text.lowercased().filter { $0 != "_" && $0 != "-" }
    }

    /// The known environments' names, for messages: `Sandbox, Production, Xcode or LocalTesting`.
    public static var knownSpellings: String {
        let names = knownValues.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}
