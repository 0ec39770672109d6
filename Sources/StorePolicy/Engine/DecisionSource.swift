/// Where a decision's value came from.
public enum DecisionSource: Sendable, Equatable {
    /// The policy's hook decided.
    case policy
    /// The policy has no such hook; the documented default applies.
    case defaultForMissingHook
    /// The hook failed; the documented default applies and the failure says why.
    case fallback(PolicyError)

    /// The source as services, logs and `decide` name it: `policy`, `default` or `fallback`.
    public var name: String {
        switch self {
        case .policy: "policy"
        case .defaultForMissingHook: "default"
        case .fallback: "fallback"
        }
    }
}
