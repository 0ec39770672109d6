extension PolicyContext.Environment {
    /// The environment `spelling` names, in any letter case: `xcode`, `sandbox` or
    /// `production`, and `LocalTesting` (also `local_testing`, `local-testing`) for the local
    /// test store, as StoreKit's `AppStore.Environment` and the App Store's payloads spell
    /// them. Nil for any other text.
    public init?(spelling: String) {
        let folded = spelling.lowercased().filter { $0 != "_" && $0 != "-" }
        switch folded {
        case "xcode", "localtesting": self = .xcode
        case "sandbox": self = .sandbox
        case "production": self = .production
        default: return nil
        }
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
