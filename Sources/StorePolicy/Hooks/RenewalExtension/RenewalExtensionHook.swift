import Foundation
import LuaBridge

extension PolicyHook {
    /// `renewal_extension(ctx, subscription, incident) -> { days, reason } | nil`: the days a
    /// subscriber is given for an incident.
    ///
    /// A request gives the subscription and the incident as JSON; `diff` asks about each
    /// subscription product with incidents of ``renewalExtensionIncidentHours``.
    public static let renewalExtension = PolicyHook(
        name: "renewal_extension",
        exampleRequests: [
            #"{"hook": "renewal_extension", "args": [{"product_id": "pass.premium", "original_transaction_id": "2000000000000001", "expires_date": 1750000000}, {"start": 1749800000, "end": 1749900000, "reason": "outage"}]}"#,
        ],
        decidesAboutItsArguments: true,
        run: { arguments throws(PolicyError) in
            let subscription = try arguments.decoded(RenewalSubscription.self, at: 0, "the subscription: { product_id, original_transaction_id, … }")
            let incident = try arguments.decoded(Incident.self, at: 1, "the incident: { start, end, reason, products, storefronts }")
            return arguments.engine.renewalExtension(arguments.context, subscription: subscription, incident: incident, traced: true)
                .map { $0.map { HookResult.value($0.luaValue) } ?? .null }
        },
        scenarios: { inputs in
            inputs.products.compactMap { product -> (PolicyProduct, PolicyProduct.Subscription)? in
                product.subscription.map { (product, $0) }
            }.flatMap { product, subscription in
                renewalExtensionIncidentHours.map { hours in
                    let end = inputs.now.addingTimeInterval(-86_400)
                    let incident = Incident(start: end.addingTimeInterval(-hours * 3600), end: end, reason: "outage")
                    return [RenewalSubscription(originalTransactionID: "2000000000000001", productID: product.id, groupID: subscription.groupId,
                                                expiresDate: inputs.now.addingTimeInterval(10 * 86_400)).luaValue,
                            incident.luaValue]
                }
            }
        })

    /// How long the incidents `diff` asks `renewal_extension` about lasted, in hours.
    static let renewalExtensionIncidentHours: [TimeInterval] = [2, 30, 240]
}
