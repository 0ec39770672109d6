import LuaBridge

extension PolicyHook {
    /// `show_merchandising(ctx, placement) -> boolean`: whether to show store merchandising.
    ///
    /// A request gives the placement (`store` when left out); `diff` asks at every placement.
    public static let showMerchandising = PolicyHook(
        name: "show_merchandising",
        exampleRequests: [#"{"hook": "show_merchandising", "ctx": {"customer": {"status_known": true}}, "args": ["home"]}"#],
        run: { arguments throws(PolicyError) in
            let placement = try arguments.string(0, "placement", default: "store")
            return arguments.engine.showMerchandising(arguments.context, placement: placement, traced: true).map(HookResult.boolean)
        },
        scenarios: { inputs in inputs.placements.map { [.string($0)] } })
}
