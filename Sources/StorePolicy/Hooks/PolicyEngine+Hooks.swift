import LuaBridge
import StoreCore

extension PolicyEngine {
    /// `show_merchandising(ctx, placement)`: whether to show merchandising at `placement`.
    ///
    /// Default: shown only when the subscription status is known and the customer has no
    /// active subscription, so a paying customer is never shown offers by mistake.
    public func showMerchandising(_ context: PolicyContext, placement: String, traced: Bool = false) -> Decision<Bool> {
        decide(PolicyHook.showMerchandising.name, context: context, traced: traced, inputs: [.string(placement)],
               fallback: { Self.defaultShowMerchandising(context) },
               arguments: { _, stack in stack.push(placement); return 1 },
               read: { _, stack, first, count throws(LuaError) in
                   guard count > 0, let shown = stack.bool(at: first) else {
                       throw Self.badResult("expected a boolean", stack, first, count)
                   }
                   return shown
               })
    }

    /// The default of `show_merchandising`.
    public static func defaultShowMerchandising(_ context: PolicyContext) -> Bool {
        context.customer.statusKnown && !context.customer.hasActiveSubscription
    }

    /// `visible_relationships(ctx, group)`: which plans of `groupID` a subscription store shows,
    /// relative to the customer's current plan. Default: `all`.
    public func visibleRelationships(_ context: PolicyContext, groupID: String, traced: Bool = false) -> Decision<[SubscriptionRelationship]> {
        decide(PolicyHook.visibleRelationships.name, context: context, traced: traced, inputs: [.string(groupID)],
               fallback: { [.all] },
               arguments: { instance, stack throws(PolicyError) in
                   try Self.pushGroup(groupID, instance: instance, stack: stack)
                   return 1
               },
               read: { _, stack, first, count throws(LuaError) in
                   try Self.readList(stack, first, count, what: "relationship") { text in
                       SubscriptionRelationship(rawValue: text)
                   }
               })
    }

    /// `plan_icon(ctx, plan)`: the icon name for subscription plan `productID`, or nil for
    /// none. Default: none.
    public func planIcon(_ context: PolicyContext, productID: String, traced: Bool = false) -> Decision<String?> {
        decide(PolicyHook.planIcon.name, context: context, traced: traced, inputs: [.string(productID)],
               fallback: { nil },
               arguments: { instance, stack throws(PolicyError) in
                   try Self.pushProduct(productID, instance: instance, stack: stack)
                   return 1
               },
               read: { _, stack, first, count throws(LuaError) -> String? in
                   if count == 0 || stack.type(at: first) == .nil { return nil }
                   guard let icon = stack.string(at: first), !icon.isEmpty, icon.utf8.count <= 128 else {
                       throw Self.badResult("expected an icon name (a non-empty string of at most 128 bytes) or nil", stack, first, count)
                   }
                   return icon
               })
    }

    /// `product_style(ctx, product)`: how prominently to show `productID`. Default: `regular`.
    public func productStyle(_ context: PolicyContext, productID: String, traced: Bool = false) -> Decision<ProductViewStyle> {
        decide(PolicyHook.productStyle.name, context: context, traced: traced, inputs: [.string(productID)],
               fallback: { .regular },
               arguments: { instance, stack throws(PolicyError) in
                   try Self.pushProduct(productID, instance: instance, stack: stack)
                   return 1
               },
               read: { _, stack, first, count throws(LuaError) in
                   guard count > 0, let text = stack.string(at: first), let style = ProductViewStyle(rawValue: text) else {
                       throw Self.badResult("expected \"compact\", \"regular\" or \"large\"", stack, first, count)
                   }
                   return style
               })
    }

    /// `store_buttons(ctx, view)`: the visibility of each store button in `view`.
    /// Buttons the hook leaves out, and every button by default, are `automatic`.
    public func storeButtons(_ context: PolicyContext, view: StoreViewKind, traced: Bool = false) -> Decision<[StoreButtonKind: StoreButtonVisibility]> {
        let automatic = Self.automaticButtons
        return decide(PolicyHook.storeButtons.name, context: context, traced: traced, inputs: [.string(view.rawValue)],
                      fallback: { automatic },
                      arguments: { _, stack in stack.push(view.rawValue); return 1 },
                      read: { _, stack, first, count throws(LuaError) in
                          guard count > 0, stack.type(at: first) == .table else {
                              throw Self.badResult("expected a table of button kinds to \"visible\", \"hidden\" or \"automatic\"", stack, first, count)
                          }
                          var buttons = automatic
                          var problem: String?
                          stack.forEachPair(of: first) { key, value in
                              guard problem == nil else { return }
                              guard let name = stack.string(at: key), let kind = StoreButtonKind(rawValue: name) else {
                                  problem = "unknown store button \(Self.describe(stack, key)); known: "
                                      + StoreButtonKind.allCases.map(\.rawValue).joined(separator: ", ")
                                  return
                              }
                              guard let text = stack.string(at: value), let visibility = StoreButtonVisibility(rawValue: text) else {
                                  problem = "\(name): expected \"visible\", \"hidden\" or \"automatic\", got \(Self.describe(stack, value))"
                                  return
                              }
                              buttons[kind] = visibility
                          }
                          if let problem { throw LuaError(kind: .badResult, message: problem) }
                          return buttons
                      })
    }

    /// Every store button at `automatic`: `store_buttons`' default, and what its answer changes.
    private static let automaticButtons = Dictionary(uniqueKeysWithValues: StoreButtonKind.allCases.map { ($0, StoreButtonVisibility.automatic) })

    /// `features(ctx)`: the features unlocked for the customer.
    ///
    /// Default: the product ids the customer is entitled to, so a paying customer keeps what
    /// was bought even when the hook fails.
    public func features(_ context: PolicyContext, traced: Bool = false) -> Decision<[String]> {
        decide(PolicyHook.features.name, context: context, traced: traced, inputs: [],
               fallback: { context.customer.entitlements },
               arguments: { _, _ in 0 },
               read: { _, stack, first, count throws(LuaError) in
                   try Self.readList(stack, first, count, what: "feature name") { $0.isEmpty ? nil : $0 }
               })
    }

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

    /// Calls any hook the policy defines, known or custom, with `arguments` after `ctx`, and
    /// returns its first result as it is, without validation or default.
    public func call(_ hook: String, context: PolicyContext, arguments: [PolicyArgument], traced: Bool = false) throws(PolicyError) -> Decision<LuaValue> {
        var value = LuaValue.nil
        let trace = try callCustom(hook, context: context, arguments: arguments, traced: traced) { stack, first, count throws(LuaError) in
            value = count > 0 ? try stack.value(at: first) : .nil
        }
        return Decision(value: value, source: .policy, trace: trace)
    }

    /// Calls any hook the policy defines and reads its first result straight from the Lua
    /// stack as `Result`: the fastest way for a host to take a custom hook's decision.
    @inlinable
    public func call<Result: LuaReadable & Sendable>(_ hook: String, context: PolicyContext, arguments: [PolicyArgument],
                                                     as type: Result.Type, traced: Bool = false) throws(PolicyError) -> Decision<Result> {
        var value: Result?
        let trace = try callCustom(hook, context: context, arguments: arguments, traced: traced) { stack, first, count throws(LuaError) in
            guard count > 0 else { throw LuaError(kind: .badResult, message: "the hook returned nothing") }
            value = try Result(from: stack, at: first)
        }
        guard let value else {
            throw PolicyError(kind: .badResult, hook: hook, script: source.chunkName, reason: "the hook returned nothing")
        }
        return Decision(value: value, source: .policy, trace: trace)
    }

    /// Runs a custom hook, handing its results to `read`; throws when the hook is missing or
    /// fails, and returns the trace when asked for one.
    @usableFromInline
    func callCustom(_ hook: String, context: PolicyContext, arguments: [PolicyArgument], traced: Bool,
                            read: (LuaStack, Int32, Int32) throws(LuaError) -> Void) throws(PolicyError) -> DecisionTrace? {
        let decision = decide(hook, context: context, traced: traced, inputs: arguments.map(\.traceValue),
                              fallback: { false },
                              arguments: { instance, stack throws(PolicyError) in
                                  for argument in arguments {
                                      try argument.push(instance: instance, stack: stack)
                                  }
                                  return Int32(arguments.count)
                              },
                              read: { _, stack, first, count throws(LuaError) in
                                  try read(stack, first, count)
                                  return true
                              })
        switch decision.source {
        case .fallback(let error): throw error
        case .defaultForMissingHook:
            throw PolicyError(kind: .badRequest, hook: hook, script: source.chunkName,
                              reason: "the policy defines no hook named '\(hook)' (it defines \(definedHooks.joined(separator: ", ")))")
        case .policy: return decision.trace
        }
    }

    // MARK: Helpers

    static func pushProduct(_ productID: String, instance: PolicyInstance, stack: LuaStack) throws(PolicyError) {
        guard instance.pushCatalogEntry(section: "products", key: productID, onto: stack) else {
            throw PolicyError(kind: .badRequest, reason: "no product '\(productID)' in the catalog")
        }
    }

    static func pushGroup(_ groupID: String, instance: PolicyInstance, stack: LuaStack) throws(PolicyError) {
        guard instance.pushCatalogEntry(section: "groups", key: groupID, onto: stack) else {
            throw PolicyError(kind: .badRequest, reason: "no subscription group '\(groupID)' in the catalog")
        }
    }

    static func readList<Item>(_ stack: LuaStack, _ first: Int32, _ count: Int32, what: String,
                               _ parse: (String) -> Item?) throws(LuaError) -> [Item] {
        guard count > 0, stack.type(at: first) == .table else {
            throw badResult("expected a list of \(what)s", stack, first, count)
        }
        let base = stack.top
        defer { stack.setTop(base) }
        let list = stack.pushReadOnlyTarget(of: first) ? stack.top : first
        let length = stack.length(at: list)
        var keys = 0
        stack.forEachPair(of: list) { _, _ in keys += 1 }
        guard keys == length else {
            throw LuaError(kind: .badResult, message: "expected a list of \(what)s, got a table with other keys")
        }
        var items: [Item] = []
        items.reserveCapacity(length)
        for position in 1...max(1, length) where position <= length {
            stack.pushItem(position, of: list)
            defer { stack.setTop(stack.top - 1) }
            guard let text = stack.string(at: -1), let item = parse(text) else {
                throw LuaError(kind: .badResult, message: "item \(position): \(describe(stack, -1)) is not a valid \(what)")
            }
            items.append(item)
        }
        return items
    }

    static func badResult(_ expected: String, _ stack: LuaStack, _ first: Int32, _ count: Int32) -> LuaError {
        LuaError(kind: .badResult, message: "\(expected), got \(count == 0 ? "nothing" : describe(stack, first))")
    }

    static func describe(_ stack: LuaStack, _ index: Int32) -> String {
        switch stack.type(at: index) {
        case .string: return "\"\(stack.string(at: index) ?? "")\""
        case .number:
            if let integer = stack.integer(at: index) { return "\(integer)" }
            return "\(stack.number(at: index) ?? 0)"
        case .boolean: return stack.bool(at: index) == true ? "true" : "false"
        case let other: return other == .nil ? "nil" : "a \(other.name)"
        }
    }
}
