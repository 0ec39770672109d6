import LuaBridge

extension PolicyHook {
    /// `store_buttons(ctx, view) -> { [kind] = "visible" | "hidden" | "automatic" }`: which
    /// buttons a store view shows.
    ///
    /// A request gives the view (`store` when left out); `diff` asks about every view.
    public static let storeButtons = PolicyHook(
        name: "store_buttons",
        exampleRequests: [#"{"hook": "store_buttons", "ctx": {"environment": "production"}, "args": ["subscription_store"]}"#],
        run: { arguments throws(PolicyError) in
            let viewName = try arguments.string(0, "view (\"store\" or \"subscription_store\")", default: "store")
            guard let view = StoreViewKind(rawValue: viewName) else {
                throw arguments.refusal("unknown view \"\(viewName)\"; use \"store\" or \"subscription_store\"")
            }
            return arguments.engine.storeButtons(arguments.context, view: view, traced: true).map { buttons in
                .buttons(Dictionary(uniqueKeysWithValues: buttons.map { ($0.key.rawValue, $0.value.rawValue) }))
            }
        },
        scenarios: { _ in StoreViewKind.allCases.map { [.string($0.rawValue)] } })
}
