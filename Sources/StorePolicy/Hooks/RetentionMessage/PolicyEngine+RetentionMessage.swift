import Foundation
import LuaBridge

extension PolicyEngine {
    /// The fields a `retention_message` answer may have.
    static let retentionFields = ["message", "alternate_product", "promotional_offer"]

    /// `retention_message(ctx, request)`: what a subscriber about to cancel is shown, or nil
    /// for Apple's default message.
    ///
    /// Default (no hook, or a hook that fails): nil, Apple's default message; the caller
    /// answers it, never an error. A message id must be a UUID; `alternate_product` another
    /// plan of the request's subscription group, `promotional_offer` one of its product's
    /// promotional offers, in the catalog; never both.
    public func retentionMessage(_ context: PolicyContext, request: RetentionRequest, traced: Bool = false) -> Decision<RetentionMessage?> {
        decide(PolicyHook.retentionMessage.name, context: context, traced: traced, inputs: [request.luaValue],
               fallback: { nil },
               arguments: { _, stack in
                   stack.push(request.luaValue)
                   return 1
               },
               read: { _, stack, first, count throws(LuaError) -> RetentionMessage? in
                   if count == 0 || stack.type(at: first) == .nil { return nil }
                   return try retentionMessage(from: try stack.value(at: first), request: request)
               })
    }

    /// A `retention_message` hook's table as a message, checked against the catalog.
    func retentionMessage(from value: LuaValue, request: RetentionRequest) throws(LuaError) -> RetentionMessage {
        let table = try ResultTable(value, known: Self.retentionFields,
                                    expected: "a table { message = UUID, alternate_product = ID | promotional_offer = ID } or nil")
        let text = try table.string("message", required: true, what: "a message identifier (a UUID)") ?? ""
        guard let uuid = UUID(uuidString: text) else {
            throw LuaError(kind: .badResult, message: "message: \"\(text)\" is not a UUID; use the identifier the message was uploaded with")
        }
        let messageID = uuid.uuidString.lowercased()
        let alternate = try table.string("alternate_product", required: false, what: "a product id")
        let offer = try table.string("promotional_offer", required: false, what: "a promotional offer id")
        switch (alternate, offer) {
        case (nil, nil):
            return RetentionMessage(messageID: messageID)
        case (_?, _?):
            throw LuaError(kind: .badResult, message: "alternate_product and promotional_offer: Apple takes one of them, not both")
        case (let productID?, nil):
            let current = catalog.products[request.productID]?.subscription
            guard let candidate = catalog.products[productID], let plan = candidate.subscription else {
                throw LuaError(kind: .badResult, message: "alternate_product: no subscription '\(productID)' in the catalog")
            }
            guard productID != request.productID else {
                throw LuaError(kind: .badResult, message: "alternate_product: '\(productID)' is the plan the customer has now")
            }
            if let current, current.groupId != plan.groupId {
                throw LuaError(kind: .badResult,
                               message: "alternate_product: '\(productID)' is not in the group of '\(request.productID)' (\(current.groupId))")
            }
            return RetentionMessage(messageID: messageID, offer: .alternateProduct(productID))
        case (nil, let offerID?):
            let offers = catalog.products[request.productID]?.subscription?.promotionalOffers.compactMap(\.id) ?? []
            guard offers.contains(offerID) else {
                let known = offers.isEmpty ? "it has none" : "it has " + offers.joined(separator: ", ")
                throw LuaError(kind: .badResult, message: "promotional_offer: '\(offerID)' is not an offer of '\(request.productID)'; \(known)")
            }
            return RetentionMessage(messageID: messageID, offer: .promotionalOffer(offerID))
        }
    }
}
