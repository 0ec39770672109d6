/// What a test or an input pins an experiment to: one of its variants, or outside it (`nil`
/// in Lua). In JSON and in `context{...}` a pin is the variant's name, or `false` for outside.
public enum ExperimentPin: Sendable, Hashable, Codable {
    /// The customer reads this variant.
    case variant(String)
    /// The customer is outside the experiment and reads `nil`.
    case outside

    /// The variant, or nil for outside.
    public var variant: String? {
        if case .variant(let name) = self { return name }
        return nil
    }

    /// Reads a variant's name, or `false` for outside.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let isIn = try? container.decode(Bool.self) {
            guard !isIn else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a variant's name, or false for outside the experiment, found true")
            }
            self = .outside
            return
        }
        let name = try container.decode(String.self)
        guard !name.isEmpty else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a variant's name, or false for outside the experiment, found an empty string")
        }
        self = .variant(name)
    }

    /// Writes the variant's name, or `false`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .variant(let name): try container.encode(name)
        case .outside: try container.encode(false)
        }
    }
}
