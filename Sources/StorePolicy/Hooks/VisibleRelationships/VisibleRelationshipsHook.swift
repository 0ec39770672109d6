import LuaBridge

extension PolicyHook {
    /// `visible_relationships(ctx, group) -> { "upgrade" | "downgrade" | "crossgrade" | "current" | "all", ... }`:
    /// which plans of a subscription group a subscription store shows.
    ///
    /// A request gives the group's id; `diff` asks about every group.
    public static let visibleRelationships = PolicyHook(
        name: "visible_relationships",
        exampleRequests: [#"{"hook": "visible_relationships", "ctx": {"customer": {"status_known": true}}, "args": ["6F3A93AB"]}"#],
        run: { arguments throws(PolicyError) in
            let groupID = try arguments.string(0, "subscription group id")
            return arguments.engine.visibleRelationships(arguments.context, groupID: groupID, traced: true)
                .map { .strings($0.map(\.rawValue)) }
        },
        scenarios: { inputs in inputs.groups.map { [.string($0)] } })
}
