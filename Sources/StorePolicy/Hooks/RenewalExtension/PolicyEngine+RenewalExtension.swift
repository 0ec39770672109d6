import LuaBridge

extension PolicyEngine {
    /// `renewal_extension(ctx, subscription, incident)`: the days `subscription`'s subscriber
    /// is given for `incident`, or nil for none.
    ///
    /// Default (no hook): nobody is extended. A hook that fails, or answers days outside 1–90
    /// or a reason Apple does not know, is a `fallback` whose value is nil: the subscriber is
    /// reported as failed, never extended by a guess.
    public func renewalExtension(_ context: PolicyContext, subscription: RenewalSubscription, incident: Incident,
                                 traced: Bool = false) -> Decision<RenewalExtension?> {
        decide(PolicyHook.renewalExtension.name, context: context, traced: traced, inputs: [subscription.luaValue, incident.luaValue],
               fallback: { nil },
               arguments: { _, stack in
                   stack.push(subscription.luaValue)
                   stack.push(incident.luaValue)
                   return 2
               },
               read: { _, stack, first, count throws(LuaError) -> RenewalExtension? in
                   if count == 0 || stack.type(at: first) == .nil { return nil }
                   return try Self.renewalExtension(from: try stack.value(at: first))
               })
    }

    /// A `renewal_extension` hook's table as an extension Apple accepts.
    static func renewalExtension(from value: LuaValue) throws(LuaError) -> RenewalExtension {
        let table = try ResultTable(value, known: ["days", "reason"], expected: "a table { days = 1…90, reason = 0…3 or Apple's word } or nil")
        let days = try table.integer("days", required: true) ?? 0
        guard (1...RenewalExtension.maximumDays).contains(days) else {
            throw LuaError(kind: .badResult, message: "days: \(days) is outside 1–90, what Apple extends by at once")
        }
        let words = RenewalExtension.Reason.allCases.map { "\($0.rawValue) or \"\($0.word)\"" }.joined(separator: ", ")
        let reason: RenewalExtension.Reason?
        let given: String
        if let code = try? table.integer("reason", required: true) {
            reason = RenewalExtension.Reason(rawValue: code)
            given = "\(code)"
        } else {
            let word = try table.string("reason", required: true, what: "a reason code") ?? ""
            reason = RenewalExtension.Reason(word: word)
            given = "\"\(word)\""
        }
        guard let reason else { throw LuaError(kind: .badResult, message: "reason: \(given) is not one of \(words)") }
        return RenewalExtension(days: days, reason: reason)
    }
}
