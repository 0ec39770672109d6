import LuaBridge

extension PolicyHook {
    /// `features(ctx) -> { string, ... }`: the features unlocked for the customer.
    ///
    /// It takes no argument after `ctx`; `diff` asks it once per context.
    public static let features = PolicyHook(
        name: "features",
        exampleRequests: [#"{"hook": "features", "ctx": {"customer": {"status_known": true, "entitlements": ["pass.premium"]}}}"#],
        run: { arguments throws(PolicyError) in
            arguments.engine.features(arguments.context, traced: true).map(HookResult.strings)
        },
        scenarios: { _ in [[]] })
}
