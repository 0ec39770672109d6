import Foundation
import LuaBridge

/// One hook call as JSON: what `storerules eval` and JSON-lines hosts send.
///
/// `{"hook": "plan_icon", "ctx": {...}, "args": ["pass.premium"]}`: `ctx` is a
/// ``PolicyContext`` (every field optional), `args` the arguments after `ctx`. A known hook
/// reads them as its ``PolicyHook`` definition says (a product or a group by its id, a
/// transaction with Apple's field names); any other hook receives them as they are.
public struct HookRequest: Sendable, Decodable {
    /// The hook to run.
    public var hook: String
    /// The context.
    public var context: PolicyContext
    /// The arguments after `ctx`.
    public var arguments: [LuaValue]
    /// Where the arguments are kept once decoded, for requests that share them (``arguments``
    /// must then be the same in each).
    var argumentCache: HookArgumentCache?

    /// Creates a request.
    public init(hook: String, context: PolicyContext = PolicyContext(customer: CustomerContext()), arguments: [LuaValue] = []) {
        self.hook = hook
        self.context = context
        self.arguments = arguments
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case hook, context = "ctx", arguments = "args"
    }

    /// A request whose arguments are kept in `argumentCache` once decoded, with every other
    /// request given the same cache and the same arguments.
    init(hook: String, context: PolicyContext, arguments: [LuaValue], argumentCache: HookArgumentCache) {
        self.init(hook: hook, context: context, arguments: arguments)
        self.argumentCache = argumentCache
    }

    /// Reads a request from JSON bytes (one line of `storerules eval --jsonl`), whatever the
    /// bytes are (see ``init(from:)``).
    ///
    /// - Throws: ``PolicyInputError`` naming where the input is wrong and why; it never traps.
    public static func decode(json: Data) throws(PolicyInputError) -> HookRequest {
        try PolicyInputError.decode(HookRequest.self, from: json)
    }

    /// Reads a request; `ctx` and `args` may be left out, an unknown field is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        hook = try container.decode(String.self, forKey: .hook)
        context = try container.decodeIfPresent(PolicyContext.self, forKey: .context) ?? PolicyContext()
        arguments = try container.decodeIfPresent([LuaValue].self, forKey: .arguments) ?? []
    }

    /// Runs the request. Known hooks are validated as the host validates them; other hooks
    /// return what they return.
    ///
    /// - Throws: ``PolicyError`` when the hook fails, breaks its contract, or the request
    ///   names something that does not exist.
    public func evaluate(with engine: PolicyEngine) throws(PolicyError) -> HookResponse {
        let decision = try run(with: engine, form: .json)
        if let failure = decision.failure { throw failure }
        return HookResponse(hook: hook, result: decision.value, policyVersion: decision.trace?.policyVersion ?? engine.version,
                            trace: decision.trace)
    }

    /// Runs the request as a service decides: a display hook that fails answers its documented
    /// default, with `source` `fallback` and the reason, instead of throwing.
    ///
    /// - Throws: ``PolicyError`` when the request is wrong, or a `grant` or custom hook fails
    ///   (they have no default).
    public func decide(with engine: PolicyEngine) throws(PolicyError) -> HookResponse {
        try decide(with: engine, form: .json)
    }

    /// Runs the request as a service decides, its arguments read from `form`.
    func decide(with engine: PolicyEngine, form: HookArguments.Form) throws(PolicyError) -> HookResponse {
        let decision = try run(with: engine, form: form)
        var response = HookResponse(hook: hook, result: decision.value,
                                    policyVersion: decision.trace?.policyVersion ?? engine.version, trace: decision.trace)
        response.source = decision.source.name
        response.fallbackReason = decision.failure?.description
        response.exposures = decision.exposures
        return response
    }

    /// The context as `engine`'s hook receives it for this request: ``context`` with each
    /// subscription's missing `group_level` looked up in the engine's catalog.
    public func context(seenBy engine: PolicyEngine) -> PolicyContext {
        var seen = context
        seen.customer.fillMissingGroupLevels(from: engine.catalog)
        return seen
    }

    /// The traced decision: a known hook's through its definition, any other hook's result as
    /// it returned it.
    private func run(with engine: PolicyEngine, form: HookArguments.Form) throws(PolicyError) -> Decision<HookResult> {
        let context = context(seenBy: engine)
        guard let known = HookRegistry.hook(named: hook) else {
            return try engine.call(hook, context: context, arguments: arguments.map(PolicyArgument.value), traced: true).map(HookResult.value)
        }
        return try known.run(HookArguments(hook: hook, values: arguments, context: context, engine: engine, form: form,
                                           cache: argumentCache))
    }
}
