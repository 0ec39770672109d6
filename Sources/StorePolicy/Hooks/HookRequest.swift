import Foundation
import LuaBridge
import StoreCore

/// One hook call as JSON: what `storerules eval` and JSON-lines hosts send.
///
/// `{"hook": "plan_icon", "ctx": {...}, "args": ["pass.premium"]}`: `ctx` is a
/// ``PolicyContext`` (every field optional), `args` the arguments after `ctx`. Where a known
/// hook expects a product or a group, the argument is its id; `grant` takes a transaction
/// with Apple's field names and optionally a product id (default: the transaction's).
public struct HookRequest: Sendable, Decodable {
    /// The hook to run.
    public var hook: String
    /// The context.
    public var context: PolicyContext
    /// The arguments after `ctx`.
    public var arguments: [LuaValue]

    /// Creates a request.
    public init(hook: String, context: PolicyContext = PolicyContext(customer: CustomerContext()), arguments: [LuaValue] = []) {
        self.hook = hook
        self.context = context
        self.arguments = arguments
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case hook, context = "ctx", arguments = "args"
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
        try decoder.refuseUnknownFields(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
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
        let outcome = try run(with: engine)
        if case .fallback(let failure) = outcome.source { throw failure }
        return HookResponse(hook: hook, result: outcome.result, policyVersion: outcome.trace?.policyVersion ?? engine.version,
                            trace: outcome.trace)
    }

    /// Runs the request as a service decides: a display hook that fails answers its documented
    /// default, with `source` `fallback` and the reason, instead of throwing.
    ///
    /// - Throws: ``PolicyError`` when the request is wrong, or a `grant` or custom hook fails
    ///   (they have no default).
    public func decide(with engine: PolicyEngine) throws(PolicyError) -> HookResponse {
        let outcome = try run(with: engine)
        var response = HookResponse(hook: hook, result: outcome.result,
                                    policyVersion: outcome.trace?.policyVersion ?? engine.version, trace: outcome.trace)
        switch outcome.source {
        case .policy: response.source = "policy"
        case .defaultForMissingHook: response.source = "default"
        case .fallback(let failure):
            response.source = "fallback"
            response.fallbackReason = failure.description
        }
        return response
    }

    /// What a decision of this request was, its trace, and where it came from.
    private typealias Outcome = (result: HookResult, trace: DecisionTrace?, source: Origin)

    /// Where a decision's value came from, whatever its value's type.
    private enum Origin {
        case policy, defaultForMissingHook, fallback(PolicyError)
    }

    private static func origin<Value>(of source: Decision<Value>.Source) -> Origin {
        switch source {
        case .policy: .policy
        case .defaultForMissingHook: .defaultForMissingHook
        case .fallback(let failure): .fallback(failure)
        }
    }

    /// The context as `engine`'s hook receives it for this request: ``context`` with each
    /// subscription's missing `group_level` looked up in the engine's catalog.
    public func context(seenBy engine: PolicyEngine) -> PolicyContext {
        var seen = context
        seen.customer.fillMissingGroupLevels(from: engine.catalog)
        return seen
    }

    private func run(with engine: PolicyEngine) throws(PolicyError) -> Outcome {
        let context = context(seenBy: engine)
        let outcome: Outcome
        switch PolicyHook(rawValue: hook) {
        case .showMerchandising:
            let decision = engine.showMerchandising(context, placement: try string(0, "placement", default: "store"), traced: true)
            outcome = (.boolean(decision.value), decision.trace, Self.origin(of: decision.source))
        case .visibleRelationships:
            let decision = engine.visibleRelationships(context, groupID: try string(0, "subscription group id"), traced: true)
            outcome = (.strings(decision.value.map(\.rawValue)), decision.trace, Self.origin(of: decision.source))
        case .planIcon:
            let decision = engine.planIcon(context, productID: try string(0, "product id"), traced: true)
            outcome = (decision.value.map(HookResult.string) ?? .null, decision.trace, Self.origin(of: decision.source))
        case .productStyle:
            let decision = engine.productStyle(context, productID: try string(0, "product id"), traced: true)
            outcome = (.string(decision.value.rawValue), decision.trace, Self.origin(of: decision.source))
        case .storeButtons:
            let viewName = try string(0, "view (\"store\" or \"subscription_store\")", default: "store")
            guard let view = StoreViewKind(rawValue: viewName) else {
                throw PolicyError(kind: .badRequest, hook: hook, reason: "unknown view \"\(viewName)\"; use \"store\" or \"subscription_store\"")
            }
            let decision = engine.storeButtons(context, view: view, traced: true)
            let buttons = Dictionary(uniqueKeysWithValues: decision.value.map { ($0.key.rawValue, $0.value.rawValue) })
            outcome = (.buttons(buttons), decision.trace, Self.origin(of: decision.source))
        case .features:
            let decision = engine.features(context, traced: true)
            outcome = (.strings(decision.value), decision.trace, Self.origin(of: decision.source))
        case .grant:
            let transaction = try transactionArgument()
            let productID = try string(1, "product id", default: transaction.productId ?? "")
            let decision = try engine.grant(context, transaction: transaction, product: productID, traced: true)
            outcome = (.grants(decision.value), decision.trace, Self.origin(of: decision.source))
        case .consumption:
            let transaction = try transactionArgument()
            let delivery: TransactionDelivery
            do throws(PolicyInputError) {
                delivery = try TransactionDelivery.described(by: arguments[0], purchaseDate: transaction.purchaseDate)
            } catch {
                throw PolicyError(kind: .badRequest, hook: hook, reason: "argument 1 is not a transaction: \(error.description)")
            }
            let request = try refundRequestArgument(at: 1)
            let decision = engine.consumption(context, transaction: transaction, delivery: delivery, request: request, traced: true)
            outcome = (decision.value.map { .value($0.luaValue) } ?? .null, decision.trace, Self.origin(of: decision.source))
        case .retentionMessage:
            guard let first = arguments.first, case .table = first else {
                throw PolicyError(kind: .badRequest, hook: hook,
                                  reason: "argument 1 must be the request: { product_id, original_transaction_id, locale, request_id }")
            }
            let request: RetentionRequest
            do throws(PolicyInputError) {
                request = try RetentionRequest.decode(first, signedAt: context.now)
            } catch {
                throw PolicyError(kind: .badRequest, hook: hook, reason: "argument 1 is not a retention request: \(error.description)")
            }
            let decision = engine.retentionMessage(context, request: request, traced: true)
            outcome = (decision.value.map { .value($0.luaValue) } ?? .null, decision.trace, Self.origin(of: decision.source))
        case .renewalExtension:
            let subscription = try decoded(RenewalSubscription.self, at: 0, "the subscription: { product_id, original_transaction_id, … }")
            let incident = try decoded(Incident.self, at: 1, "the incident: { start, end, reason, products, storefronts }")
            let decision = engine.renewalExtension(context, subscription: subscription, incident: incident, traced: true)
            outcome = (decision.value.map { .value($0.luaValue) } ?? .null, decision.trace, Self.origin(of: decision.source))
        case .winBackOffer:
            let productID = try string(0, "product id")
            let offerIDs = try offerIDsArgument(at: 1, productID: productID, engine: engine, context: context)
            let decision = engine.winBackOffer(context, productID: productID, offerIDs: offerIDs, traced: true)
            outcome = (decision.value.map(HookResult.string) ?? .null, decision.trace, Self.origin(of: decision.source))
        case nil:
            let decision = try engine.call(hook, context: context, arguments: arguments.map(PolicyArgument.value), traced: true)
            outcome = (.value(decision.value), decision.trace, Self.origin(of: decision.source))
        }
        return outcome
    }

    /// The eligible win-back offers at `index`: a list of offer ids, or of offer tables with an
    /// `id`, each a win-back offer of `productID`; absent, the product's offers among the
    /// context's `win_back_offers` for its group, as the storefront asks.
    private func offerIDsArgument(at index: Int, productID: String, engine: PolicyEngine, context: PolicyContext) throws(PolicyError) -> [String] {
        let catalog = engine.catalog
        guard let subscription = catalog.products[productID]?.subscription else {
            throw PolicyError(kind: .badRequest, hook: hook, reason: "'\(productID)' is not an auto-renewable subscription of the catalog")
        }
        let offered = subscription.winBackOffers.compactMap(\.id)
        guard index < arguments.count else { return engine.eligibleWinBackOfferIDs(context, productID: productID, in: catalog) }
        let reason = "argument \(index + 1) must be the eligible offers: a list of offer ids, or of offers with an id"
        guard case .table(let table) = arguments[index], table.hash.isEmpty else {
            throw PolicyError(kind: .badRequest, hook: hook, reason: reason)
        }
        var ids: [String] = []
        for item in table.array {
            let id: String
            switch item {
            case .string(let text): id = text
            case .table(let offer):
                guard case .string(let text)? = offer.hash[.string("id")] else {
                    throw PolicyError(kind: .badRequest, hook: hook, reason: reason)
                }
                id = text
            default: throw PolicyError(kind: .badRequest, hook: hook, reason: reason)
            }
            guard offered.contains(id) else {
                let known = offered.isEmpty ? "it has none" : "its offers: " + offered.joined(separator: ", ")
                throw PolicyError(kind: .badRequest, hook: hook, reason: "'\(id)' is not a win-back offer of '\(productID)' (\(known))")
            }
            ids.append(id)
        }
        return ids
    }

    private func string(_ index: Int, _ what: String, default fallback: String? = nil) throws(PolicyError) -> String {
        guard index < arguments.count else {
            if let fallback { return fallback }
            throw PolicyError(kind: .badRequest, hook: hook, reason: "missing argument \(index + 1): the \(what)")
        }
        guard case .string(let text) = arguments[index] else {
            throw PolicyError(kind: .badRequest, hook: hook, reason: "argument \(index + 1) must be the \(what) as a string")
        }
        return text
    }

    /// The argument at `index` read as `type` from its JSON, the way ``PolicyInputError`` reads input.
    private func decoded<Value: Decodable>(_ type: Value.Type, at index: Int, _ what: String) throws(PolicyError) -> Value {
        guard index < arguments.count, case .table = arguments[index] else {
            throw PolicyError(kind: .badRequest, hook: hook, reason: "argument \(index + 1) must be \(what)")
        }
        do throws(PolicyInputError) {
            return try PolicyInputError.decode(Value.self, from: arguments[index])
        } catch {
            throw PolicyError(kind: .badRequest, hook: hook, reason: "argument \(index + 1) is not \(what): \(error.description)")
        }
    }

    /// The refund request at `index`: a table of ``RefundRequest``'s fields, or nothing for a
    /// request with no reason, made now.
    private func refundRequestArgument(at index: Int) throws(PolicyError) -> RefundRequest {
        guard index < arguments.count else {
            return RefundRequest(reason: nil, notificationUUID: "", requestedAt: context.now, deadline: context.now.addingTimeInterval(12 * 3600))
        }
        guard case .table = arguments[index] else {
            throw PolicyError(kind: .badRequest, hook: hook,
                              reason: "argument \(index + 1) must be the refund request: { reason, notification_uuid, requested_at, deadline }")
        }
        do throws(PolicyInputError) {
            return try RefundRequest.decode(arguments[index], madeAt: context.now)
        } catch {
            throw PolicyError(kind: .badRequest, hook: hook, reason: "argument \(index + 1) is not a refund request: \(error.description)")
        }
    }

    private func transactionArgument() throws(PolicyError) -> JWSTransactionDecodedPayload {
        guard let first = arguments.first, case .table = first else {
            throw PolicyError(kind: .badRequest, hook: hook, reason: "argument 1 must be a transaction object with Apple's field names")
        }
        do {
            return try SignedPayloadJSON.makeDecoder().decode(JWSTransactionDecodedPayload.self, from: JSONEncoder().encode(first))
        } catch {
            throw PolicyError(kind: .badRequest, hook: hook, reason: "argument 1 is not a transaction: \(error)")
        }
    }
}

/// The answer to a ``HookRequest``: `{"hook", "result", "policy_version", "trace"}`.
public struct HookResponse: Sendable, Encodable {
    /// The hook that ran.
    public var hook: String
    /// What it decided, after validation.
    public var result: HookResult
    /// The policy version that decided.
    public var policyVersion: String
    /// How the decision was made.
    public var trace: DecisionTrace?
    /// Where the result came from, when a service decided (``HookRequest/decide(with:)``):
    /// `policy`, `default` (the policy lacks the hook) or `fallback` (the hook failed).
    public var source: String?
    /// Why the hook's default was used, for a `fallback`.
    public var fallbackReason: String?

    private enum CodingKeys: String, CodingKey {
        case hook, result, policyVersion = "policy_version", trace, source, fallbackReason = "fallback_reason"
    }
}

/// A decision's value as JSON.
public enum HookResult: Sendable, Equatable, Encodable {
    /// `null`.
    case null
    /// `true` / `false`.
    case boolean(Bool)
    /// A string.
    case string(String)
    /// A list of strings.
    case strings([String])
    /// Store buttons: kind → visibility.
    case buttons([String: String])
    /// Grants: `[{"item", "amount"}]`.
    case grants([Grant])
    /// Any value a custom hook returned.
    case value(LuaValue)

    /// Writes the value as plain JSON.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .boolean(let flag): try single.encode(flag)
        case .string(let text): try single.encode(text)
        case .strings(let list): try single.encode(list)
        case .buttons(let buttons): try single.encode(buttons)
        case .grants(let grants): try single.encode(grants)
        case .value(let value): try single.encode(value)
        }
    }
}
