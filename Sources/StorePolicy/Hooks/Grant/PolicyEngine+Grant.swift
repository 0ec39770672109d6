import LuaBridge
import StoreCore

extension PolicyEngine {
    /// `grant(ctx, tx, product)`: what a purchase grants.
    ///
    /// Without a `grant` hook a consumable grants its own product id, `quantity` times, and
    /// anything else grants nothing. A failing hook or an invalid grant is not guessed at:
    /// this method throws, and the caller leaves the transaction unfinished to retry later.
    public func grant(_ context: PolicyContext, transaction: JWSTransactionDecodedPayload, product productID: String,
                      traced: Bool = false) throws(PolicyError) -> Decision<[Grant]> {
        var decision = decide(PolicyHook.grant.name, context: context, traced: traced,
                              inputs: [.string(transaction.transactionId ?? ""), .string(productID)],
                              fallback: { [Grant]() },
                              arguments: { instance, stack throws(PolicyError) in
                                  do throws(LuaError) {
                                      try instance.pushTransaction(transaction, onto: stack)
                                  } catch {
                                      throw PolicyError(kind: .badRequest, hook: "grant", reason: error.message)
                                  }
                                  try Self.pushProduct(productID, instance: instance, stack: stack)
                                  return 2
                              },
                              read: { instance, stack, first, count throws(LuaError) in
                                  guard count > 0, stack.type(at: first) == .table else {
                                      throw Self.badResult("expected a list of { item = string, amount = integer }", stack, first, count)
                                  }
                                  let grants = try instance.decoder.decode([Grant].self, from: stack, at: first)
                                  for grant in grants {
                                      do {
                                          try grant.validate()
                                      } catch {
                                          throw LuaError(kind: .badResult, message: "\(error)")
                                      }
                                  }
                                  return grants
                              })
        switch decision.source {
        case .fallback(let error):
            throw error
        case .defaultForMissingHook:
            let isConsumable = catalog.products[productID]?.type == ProductType.consumable.policyName
            decision.value = isConsumable ? [Grant(item: productID, amount: Int(transaction.quantity ?? 1))] : []
        case .policy:
            break
        }
        return decision
    }
}
