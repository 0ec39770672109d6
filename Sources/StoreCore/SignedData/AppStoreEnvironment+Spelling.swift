extension AppStoreEnvironment {
    /// The known environment `spelling` names in any letter case (`sandbox`, `XCODE`,
    /// `LocalTesting`), or `nil` when it names none: the one reading of an environment that
    /// people type, on command lines and in hand-written JSON.
    public init?(spelling: String) {
        guard let known = Self.knownValues.first(where: { $0.rawValue.lowercased() == spelling.lowercased() }) else {
            return nil
        }
        self = known
    }

    /// The known environments' names, for messages: `Sandbox, Production, Xcode or LocalTesting`.
    public static var knownSpellings: String {
        let names = knownValues.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}
