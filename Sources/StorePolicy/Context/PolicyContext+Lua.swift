import Foundation
import LuaBridge

extension PolicyContext {
    /// Pushes `ctx` as one Lua table, field by field, with the shared read-only catalog; with
    /// `strict`, `ctx`, `ctx.customer` and its subscription entries refuse unknown fields.
    func push(onto stack: LuaStack, catalog: LuaReference, strict: StrictContext? = nil) {
        _ = stack.reserve(8)
        stack.pushTable(fieldCount: 6)
        let table = stack.top
        if let strict { stack.setMetatable(strict.context, of: table) }
        stack.push(EpochSeconds.whole(now))
        stack.setField("now", of: table)
        stack.push(storefront)
        stack.setField("storefront", of: table)
        stack.push(locale)
        stack.setField("locale", of: table)
        stack.push(environment.rawValue)
        stack.setField("environment", of: table)
        stack.push(catalog)
        stack.setField("catalog", of: table)
        customer.push(onto: stack, strict: strict)
        stack.setField("customer", of: table)
    }
}

extension CustomerContext {
    /// Pushes `ctx.customer`; every table the contract names is present, possibly empty.
    func push(onto stack: LuaStack, strict: StrictContext? = nil) {
        stack.pushTable(fieldCount: 8)
        let table = stack.top
        if let strict { stack.setMetatable(strict.customer, of: table) }
        stack.push(id)
        stack.setField("id", of: table)
        stack.push(seed)
        stack.setField("seed", of: table)
        stack.push(statusKnown)
        stack.setField("status_known", of: table)

        stack.pushTable(arrayCount: entitlements.count)
        for (position, productID) in entitlements.enumerated() {
            stack.push(productID)
            stack.setItem(position + 1, of: -2)
        }
        stack.setField("entitlements", of: table)

        stack.pushTable(fieldCount: subscriptions.count)
        let byGroup = stack.top
        for (groupID, subscription) in subscriptions {
            subscription.push(onto: stack)
            if let strict { stack.setMetatable(strict.subscription, of: -1) }
            stack.setField(named: groupID, of: byGroup)
        }
        stack.setField("subscriptions", of: table)

        stack.pushTable(fieldCount: balances.count)
        let balanceTable = stack.top
        for (item, amount) in balances {
            stack.push(amount)
            stack.setField(named: item, of: balanceTable)
        }
        stack.setField("balances", of: table)

        stack.pushTable(fieldCount: attributes.count)
        let attributeTable = stack.top
        for (key, value) in attributes {
            stack.push(value)
            stack.setField(named: key, of: attributeTable)
        }
        stack.setField("attributes", of: table)

        stack.pushTable(fieldCount: events.count)
        let eventTable = stack.top
        for (name, history) in events {
            history.push(onto: stack)
            stack.setField(named: name, of: eventTable)
        }
        stack.setField("events", of: table)
    }
}

extension EventHistory {
    /// Pushes `{count = …, last = …, recent = {…}}`; `last` is absent when it never happened.
    func push(onto stack: LuaStack) {
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: 3)
        let table = stack.top
        stack.push(count)
        stack.setField("count", of: table)
        if let last {
            stack.push(EpochSeconds.whole(last))
            stack.setField("last", of: table)
        }
        stack.pushTable(arrayCount: recent.count)
        for (position, date) in recent.enumerated() {
            stack.push(EpochSeconds.whole(date))
            stack.setItem(position + 1, of: -2)
        }
        stack.setField("recent", of: table)
    }
}

extension SubscriptionSnapshot {
    func push(onto stack: LuaStack) {
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: 6)
        let table = stack.top
        stack.push(productID)
        stack.setField("product_id", of: table)
        stack.push(groupLevel)
        stack.setField("group_level", of: table)
        stack.push(state.rawValue)
        stack.setField("state", of: table)
        stack.push(willAutoRenew)
        stack.setField("will_auto_renew", of: table)
        if let expirationDate {
            stack.push(EpochSeconds.whole(expirationDate))
            stack.setField("expiration_date", of: table)
        }
        stack.push(introEligible)
        stack.setField("intro_eligible", of: table)
    }
}
