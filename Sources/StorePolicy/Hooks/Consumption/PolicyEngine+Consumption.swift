import LuaBridge
import StoreCore

extension PolicyEngine {
    /// The fields a `consumption` answer may have.
    static let consumptionFields = [
        "customer_consented", "delivery_status", "consumption_percentage", "refund_preference", "sample_content_provided",
    ]

    /// `consumption(ctx, tx, request)`: what to tell Apple about a refund request for
    /// `transaction`, or nil to send nothing. `tx` carries what the ledger delivered of it
    /// (`tx.granted`, `tx.granted_date`, `tx.grants`: ``TransactionDelivery/luaFields``), so an
    /// answer can tell a purchase used up from one never delivered. The answer is held to
    /// Apple's rules (see ``StoreCore/ConsumptionAnswer/validate(autoRenewable:)``), a broken one
    /// named by its field.
    ///
    /// Default (no hook): nothing is sent. A hook that fails, or answers something Apple would
    /// refuse, is a `fallback` decision whose value is nil: the caller does not guess an answer
    /// about money, it tries again later.
    public func consumption(_ context: PolicyContext, transaction: JWSTransactionDecodedPayload, delivery: TransactionDelivery,
                            request: RefundRequest, traced: Bool = false) -> Decision<ConsumptionAnswer?> {
        decide(PolicyHook.consumption.name, context: context, traced: traced,
               inputs: [.string(transaction.transactionId ?? ""), .table(LuaTable(hash: delivery.luaFieldTable)), request.luaValue],
               fallback: { nil },
               arguments: { instance, stack throws(PolicyError) in
                   do throws(LuaError) {
                       try instance.pushRefundedTransaction(transaction, delivery: delivery, onto: stack)
                   } catch {
                       throw PolicyError(kind: .badRequest, hook: PolicyHook.consumption.name, reason: error.message)
                   }
                   stack.push(request.luaValue)
                   return 2
               },
               read: { _, stack, first, count throws(LuaError) -> ConsumptionAnswer? in
                   if count == 0 || stack.type(at: first) == .nil { return nil }
                   return try Self.consumptionAnswer(from: try stack.value(at: first),
                                                     autoRenewable: transaction.type == .autoRenewableSubscription)
               })
    }

    /// A `consumption` hook's table as Apple's answer, by Apple's rules.
    static func consumptionAnswer(from value: LuaValue, autoRenewable: Bool) throws(LuaError) -> ConsumptionAnswer {
        let table = try ResultTable(value, known: consumptionFields,
                                    expected: "a table { customer_consented, delivery_status, sample_content_provided, … } or nil")
        let consented = try table.boolean("customer_consented", required: true) ?? false
        let delivery = try table.word("delivery_status", ConsumptionAnswer.DeliveryStatus.self, required: true) ?? .delivered
        let percentage = try table.integer("consumption_percentage", required: false)
        let preference = try table.word("refund_preference", ConsumptionAnswer.RefundPreference.self, required: false)
        let sample = try table.boolean("sample_content_provided", required: true) ?? false
        do {
            return try ConsumptionAnswer(customerConsented: consented, deliveryStatus: delivery, consumptionPercentage: percentage,
                                         refundPreference: preference, sampleContentProvided: sample, autoRenewable: autoRenewable)
        } catch {
            throw LuaError(kind: .badResult, message: error.description)
        }
    }
}

extension ConsumptionAnswer {
    /// The answer as a policy writes it: snake_case fields, Apple's words.
    public var luaValue: LuaValue {
        var fields: [LuaValue: LuaValue] = [
            .string("customer_consented"): .boolean(customerConsented),
            .string("delivery_status"): .string(deliveryStatus.rawValue),
            .string("sample_content_provided"): .boolean(sampleContentProvided),
        ]
        if let consumptionPercentage { fields[.string("consumption_percentage")] = .integer(Int64(consumptionPercentage)) }
        if let refundPreference { fields[.string("refund_preference")] = .string(refundPreference.rawValue) }
        return .table(LuaTable(hash: fields))
    }
}
