import LuaBridge

extension PolicyEngine {
    /// `visible_relationships(ctx, group)`: which plans of `groupID` a subscription store shows,
    /// relative to the customer's current plan. Default: `all`.
    public func visibleRelationships(_ context: PolicyContext, groupID: String, traced: Bool = false) -> Decision<[SubscriptionRelationship]> {
        decide(PolicyHook.visibleRelationships.name, context: context, traced: traced, inputs: [.string(groupID)],
               fallback: { [.all] },
               arguments: { instance, stack throws(PolicyError) in
                   try Self.pushGroup(groupID, instance: instance, stack: stack)
                   return 1
               },
               read: { _, stack, first, count throws(LuaError) in
                   try Self.readList(stack, first, count, what: "relationship") { text in
                       SubscriptionRelationship(rawValue: text)
                   }
               })
    }
}
