/// Every hook StoreRules knows, each defined in its own folder under `Hooks/`.
///
/// The engine loads these hooks' functions up front, `eval`, the service and `test`'s `decide`
/// run them through their definitions, `diff` asks them about their scenarios, the lint
/// names them as known, and the fuzz target starts from their example requests.
public enum HookRegistry {
    /// The known hooks, in the order the documentation lists them.
    public static let all: [PolicyHook] = [
        .showMerchandising,
        .visibleRelationships,
        .planIcon,
        .grant,
        .productStyle,
        .storeButtons,
        .features,
        .consumption,
        .retentionMessage,
        .renewalExtension,
        .winBackOffer,
    ]

    /// The known hook named `name`, or nil for a hook of the policy's own.
    public static func hook(named name: String) -> PolicyHook? {
        byName[name]
    }

    /// The names of the known hooks, in ``all``'s order.
    public static var names: [String] { all.map(\.name) }

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
