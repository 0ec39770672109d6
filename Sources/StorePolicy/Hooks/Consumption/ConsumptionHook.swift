import Foundation
import LuaBridge
import StoreCore

extension PolicyHook {
    /// `consumption(ctx, tx, request) -> { customer_consented, delivery_status, ... } | nil`:
    /// what to tell Apple about a customer's refund request.
    ///
    /// A request gives the transaction, with what the ledger delivered of it (`granted`,
    /// `granted_date`, `grants`; granted at its purchase when it does not say), and the refund
    /// request (one with no reason, made at `ctx.now`, when left out). `diff` asks about a
    /// purchase of each product with each refund reason, granted and not.
    public static let consumption = PolicyHook(
        name: "consumption",
        exampleRequests: [
            #"{"hook": "consumption", "ctx": {"now": 1750000000, "customer": {"status_known": true, "balances": {"pellet": 5}}}, "args": [{"productId": "pellet.box", "type": "Consumable", "purchaseDate": 1749900000000, "granted": true}, {"reason": "UNSATISFIED_WITH_PURCHASE"}]}"#,
        ],
        decidesAboutItsArguments: true,
        run: { arguments throws(PolicyError) in
            let transaction = try arguments.transaction(at: 0)
            let delivery: TransactionDelivery
            do throws(PolicyInputError) {
                delivery = try TransactionDelivery.described(by: arguments.values[0], purchaseDate: transaction.purchaseDate)
            } catch {
                throw arguments.refusal("argument 1 is not a transaction: \(error.description)")
            }
            let request = try arguments.refundRequest(at: 1)
            return arguments.engine.consumption(arguments.context, transaction: transaction, delivery: delivery, request: request, traced: true)
                .map { $0.map { HookResult.value($0.luaValue) } ?? .null }
        },
        scenarios: { inputs in
            let purchased = inputs.now.addingTimeInterval(-3 * 86_400)
            return inputs.products.flatMap { product in
                inputs.refundReasons.flatMap { reason in
                    [true, false].map { granted in
                        [HookScenarioInputs.transaction(product.id, type: product.type, quantity: 1, at: purchased, granted: granted),
                         .table(LuaTable(hash: [.string("reason"): .string(reason),
                                                .string("requested_at"): .integer(Int64(inputs.now.timeIntervalSince1970))]))]
                    }
                }
            }
        })
}

extension HookArguments {
    /// The refund request at `index`: a table of ``RefundRequest``'s fields, or, when it is not
    /// given, a request with no reason made at `ctx.now`.
    func refundRequest(at index: Int) throws(PolicyError) -> RefundRequest {
        guard isGiven(index) else { return RefundRequest.withoutReason(madeAt: context.now) }
        return try kept(RefundRequest.self, at: index) { () throws(PolicyError) -> RefundRequest in
            let value = try table(index, "the refund request: { reason, notification_uuid, requested_at, deadline }")
            do throws(PolicyInputError) {
                return try RefundRequest.decode(value, madeAt: context.now)
            } catch {
                throw refusal("argument \(index + 1) is not a refund request: \(error.description)")
            }
        }
    }
}
