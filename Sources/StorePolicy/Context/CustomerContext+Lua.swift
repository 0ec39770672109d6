import Foundation
import LuaBridge

extension CustomerContext {
    /// Pushes `ctx.customer.entitlements`: the product ids as a list.
    func pushEntitlements(onto stack: LuaStack) {
        stack.pushTable(arrayCount: entitlements.count)
        for (position, productID) in entitlements.enumerated() {
            stack.push(productID)
            stack.setItem(position + 1, of: -2)
        }
    }

    /// Pushes `ctx.customer.subscriptions`: each group's entry, strict through `metatable`.
    func pushSubscriptions(onto stack: LuaStack, entryMetatable metatable: LuaReference) {
        _ = stack.reserve(8)
        stack.pushTable(fieldCount: subscriptions.count)
        let byGroup = stack.top
        for (groupID, subscription) in subscriptions {
            subscription.push(onto: stack)
            stack.setMetatable(metatable, of: -1)
            stack.setField(named: groupID, of: byGroup)
        }
    }

    /// Pushes `ctx.customer.balances`: item → amount.
    func pushBalances(onto stack: LuaStack) {
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: balances.count)
        let table = stack.top
        for (item, amount) in balances {
            stack.push(amount)
            stack.setField(named: item, of: table)
        }
    }

    /// Pushes `ctx.customer.attributes` as the host passed them.
    func pushAttributes(onto stack: LuaStack) {
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: attributes.count)
        let table = stack.top
        for (key, value) in attributes {
            stack.push(value)
            stack.setField(named: key, of: table)
        }
    }

    /// Pushes `ctx.customer.events`: each name's history.
    func pushEvents(onto stack: LuaStack) {
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: events.count)
        let table = stack.top
        for (name, history) in events {
            history.push(onto: stack)
            stack.setField(named: name, of: table)
        }
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
    /// Pushes one entry of `ctx.customer.subscriptions`; `expiration_date` is absent when unknown.
    func push(onto stack: LuaStack) {
        _ = stack.reserve(4)
        stack.pushTable(fieldCount: 8)
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
        stack.pushTable(arrayCount: winBackOfferIDs.count)
        for (position, offerID) in winBackOfferIDs.enumerated() {
            stack.push(offerID)
            stack.setItem(position + 1, of: -2)
        }
        stack.setField("win_back_offers", of: table)
        stack.push(paidMonths)
        stack.setField("paid_months", of: table)
    }
}
