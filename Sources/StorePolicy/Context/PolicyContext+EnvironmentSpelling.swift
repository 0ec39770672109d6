import StoreCore

extension PolicyContext.Environment {
    /// The environment `spelling` names, read as ``StoreCore/AppStoreEnvironment/init(spelling:)``
    /// reads it everywhere else (any letter case, `local_testing` too), then seen as the policy
    /// sees signed data from there: `LocalTesting` is the local test store, xcode. Nil for any
    /// other text.
    public init?(spelling: String) {
        guard let environment = AppStoreEnvironment(spelling: spelling) else { return nil }
        self.init(environment)
    }

    /// The spellings ``init(spelling:)`` accepts, in words, for error messages.
    static let spellings = "xcode, sandbox or production (any letter case; LocalTesting means xcode)"
}

extension PolicyContext.Environment {
    /// Reads an environment written in any spelling ``init(spelling:)`` accepts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let environment = Self(spelling: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown environment \(JSONPath.quoted(text)); use \(Self.spellings)")
        }
        self = environment
    }
}
