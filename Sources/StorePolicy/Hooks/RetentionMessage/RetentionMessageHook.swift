import Foundation
import LuaBridge

extension PolicyHook {
    /// `retention_message(ctx, request) -> { message, alternate_product | promotional_offer } | nil`:
    /// what a subscriber about to cancel is shown.
    ///
    /// A request gives Apple's request (`{ product_id, original_transaction_id, locale,
    /// request_id }`, signed at `ctx.now` unless it says); `diff` asks about each subscription.
    public static let retentionMessage = PolicyHook(
        name: "retention_message",
        exampleRequests: [
            #"{"hook": "retention_message", "ctx": {"customer": {"status_known": true}}, "args": [{"product_id": "pass.premium", "original_transaction_id": "2000000000000001", "locale": "en-US"}]}"#,
        ],
        decidesAboutItsArguments: true,
        run: { arguments throws(PolicyError) in
            let described = try arguments.table(0, "the request: { product_id, original_transaction_id, locale, request_id }")
            let request: RetentionRequest
            do throws(PolicyInputError) {
                request = try RetentionRequest.decode(described, signedAt: arguments.context.now)
            } catch {
                throw arguments.refusal("argument 1 is not a retention request: \(error.description)")
            }
            return arguments.engine.retentionMessage(arguments.context, request: request, traced: true)
                .map { $0.map { HookResult.value($0.luaValue) } ?? .null }
        },
        scenarios: { inputs in
            inputs.products.filter { $0.type == "auto_renewable" }.map { product in
                [.table(LuaTable(hash: [.string("product_id"): .string(product.id),
                                        .string("original_transaction_id"): .string("2000000000000001"),
                                        .string("signed_at"): .integer(Int64(inputs.now.timeIntervalSince1970))]))]
            }
        })
}
