import LuaBridge
import StoreCore

/// The metatables that make each subscription entry, each catalog product (with its
/// `subscription` and its offers), `grant`'s and `consumption`'s transactions, `winback_offer`'s offers, and a test file's `context{...}` strict (the
/// engine's own `ctx` and `ctx.customer` are ``LazyContext``'s, with the same check): reading
/// a field they do not have raises an error naming it and the nearest field they do have
/// (`ctx.customer has no field 'subscription' (did you mean 'subscriptions'?)`), while a known
/// field left out (an `expiration_date` a subscription has none of) reads as nil.
///
/// Only absent keys reach a metatable, so reading a field that is there costs nothing more.
/// The tables keyed by data (`subscriptions` by group, `balances`, `attributes`, `events`)
/// stay open, `rawget` still reads these tables without the check, and the metatables are locked
/// (`getmetatable` gives `false`), so no policy can change them for a later call.
struct StrictContext {
    let subscription: LuaReference
    let product: LuaReference
    let productSubscription: LuaReference
    let offer: LuaReference
    let transaction: LuaReference
    let refundedTransaction: LuaReference

    /// The fields of each strict table, as the host pushes them: `ctx`'s, `ctx.customer`'s and a
    /// subscription entry's as `CPolicyContext` declares them (``ContextTable``).
    static let contextFields = ContextTable.context.fieldNames
    static let customerFields = ContextTable.customer.fieldNames
    static let subscriptionFields = ContextTable.subscriptionEntry.fieldNames
    static let productFields = ["id", "type", "display_name", "description", "price", "display_price", "is_family_shareable", "subscription"]
    static let productSubscriptionFields = ["group_id", "group_name", "group_level", "period", "introductory_offer", "promotional_offers",
                                            "win_back_offers"]
    static let offerFields = ["id", "type", "payment_mode", "price", "display_price", "period", "period_count"]
    /// A transaction as `grant` receives it: every field of Apple's payload, set or not.
    static let transactionFields = LuaEncoder.luaKeys(ofPropertiesOf: JWSTransactionDecodedPayload())
    /// A transaction as `consumption` receives it: `grant`'s, with what the ledger delivered of it.
    static let refundedTransactionFields = transactionFields + TransactionDelivery.luaFields

    /// Makes the metatables in `state`, once per state: each a locked table whose `__index`
    /// is a host function holding its fields. (`ctx` and `ctx.customer` are the engine's
    /// ``LazyContext``'s; a test file's are made with ``metatable(_:fields:in:)``.)
    init(in state: LuaState) {
        subscription = Self.metatable(ContextTable.subscriptionEntry.name, fields: Self.subscriptionFields, in: state)
        product = Self.metatable("a product", fields: Self.productFields, in: state)
        productSubscription = Self.metatable("a product's subscription", fields: Self.productSubscriptionFields, in: state)
        offer = Self.metatable("an offer", fields: Self.offerFields, in: state)
        transaction = Self.metatable("the transaction", fields: Self.transactionFields, in: state)
        refundedTransaction = Self.metatable("the transaction", fields: Self.refundedTransactionFields, in: state)
    }

    /// A locked metatable for the strict table `name` of `fields`: its `__index` is a host
    /// function that raises ``unknownField(of:fields:_:)`` for a key `fields` does not list.
    static func metatable(_ name: String, fields: [String], in state: LuaState) -> LuaReference {
        let known = Set(fields)
        let index = state.functionReference { stack throws(LuaError) in
            if stack.type(at: 2) == .string, let key = stack.string(at: 2), known.contains(key) { return 0 }
            throw Self.unknownField(of: name, fields: fields, stack)
        }
        return state.withStack { stack in
            stack.pushTable(fieldCount: 2)
            stack.push(index)
            stack.setField("__index", of: -2)
            stack.push(false)
            stack.setField("__metatable", of: -2)
            return state.reference(toValueAt: -1)
        }
    }

    /// The error for reading the key at index 2 of a strict table `name` of `fields`, raised
    /// at the policy line that read it, with the nearest field when there is one.
    static func unknownField(of name: String, fields: [String], _ stack: LuaStack) -> LuaError {
        LuaError(kind: .runtime, message: stack.location(level: 1) + unknownFieldMessage(of: name, fields: fields, stack))
    }

    /// ``unknownField(of:fields:_:)``'s message without its location.
    static func unknownFieldMessage(of name: String, fields: [String], _ stack: LuaStack) -> String {
        let key = keyText(stack)
        let hint = stack.type(at: 2) == .string
            ? NearestName.nearest(to: key, in: fields).map { " (did you mean '\($0)'?)" } ?? ""
            : ""
        return "\(name) has no field '\(key)'\(hint)"
    }

    /// The key at index 2 as `tostring` shows a string, number or boolean, or its type's name.
    static func keyText(_ stack: LuaStack) -> String {
        switch stack.type(at: 2) {
        case .string: return stack.string(at: 2) ?? ""
        case .number: return stack.integer(at: 2).map { "\($0)" } ?? "\(stack.number(at: 2) ?? 0)"
        case .boolean: return stack.bool(at: 2) == true ? "true" : "false"
        case let other: return other.name
        }
    }

    /// Makes each product of the read-only catalog `catalog` strict, its `subscription` and its
    /// offers:
    /// the tables the catalog's views show get the metatables, so a view's lookup that misses
    /// reaches the check.
    func applyToProducts(of catalog: LuaReference, in state: LuaState) {
        state.withStack { stack in
            stack.push(catalog)
            guard stack.pushReadOnlyTarget(of: stack.top), stack.pushField("products", of: stack.top) == .table,
                  stack.pushReadOnlyTarget(of: stack.top) else { return }
            stack.forEachPair(of: stack.top) { _, value in
                let base = stack.top
                defer { stack.setTop(base) }
                guard stack.pushReadOnlyTarget(of: value) else { return }
                let target = stack.top
                stack.setMetatable(product, of: target)
                if stack.pushField("subscription", of: target) == .table, stack.pushReadOnlyTarget(of: stack.top) {
                    stack.setMetatable(productSubscription, of: stack.top)
                    applyToOffers(of: stack.top, stack)
                }
            }
        }
    }

    /// Makes the offers of the subscription table at `subscription` strict: its introductory
    /// offer and each of its promotional and win-back offers.
    private func applyToOffers(of subscription: Int32, _ stack: LuaStack) {
        let base = stack.top
        defer { stack.setTop(base) }
        if stack.pushField("introductory_offer", of: subscription) == .table, stack.pushReadOnlyTarget(of: stack.top) {
            stack.setMetatable(offer, of: stack.top)
        }
        for list in ["promotional_offers", "win_back_offers"] {
            stack.setTop(base)
            guard stack.pushField(named: list, of: subscription) == .table, stack.pushReadOnlyTarget(of: stack.top) else { continue }
            let items = stack.top
            for position in 0..<stack.length(at: items) {
                if stack.pushItem(position + 1, of: items) == .table, stack.pushReadOnlyTarget(of: stack.top) {
                    stack.setMetatable(offer, of: stack.top)
                }
                stack.setTop(items)
            }
        }
    }
}
