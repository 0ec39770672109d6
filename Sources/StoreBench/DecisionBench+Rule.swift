import Foundation
import LuaBridge
import StorePolicy

extension DecisionBench {
    /// The benchmark rule, as a policy hook.
    static let policy = """
    local GROUP = "BENCH"
    local policy = {}
    function policy.upgrade_offer(ctx, product_ids)
        local current = ctx.customer.subscriptions[GROUP]
        local subscribed = current ~= nil and current.state == "subscribed"
        local level = subscribed and current.group_level or 0
        local upgrades = {}
        for candidate = 1, #product_ids do
            if not subscribed or candidate < level then upgrades[#upgrades + 1] = candidate end
        end
        return { show = not subscribed or level > 1, upgrades = upgrades }
    end
    return policy
    """

    /// The rule's output, read straight from the hook's result table.
    struct UpgradeOffer: LuaReadable, Sendable, Equatable {
        var show: Bool
        var upgrades: [Int]

        init(show: Bool, upgrades: [Int]) {
            self.show = show
            self.upgrades = upgrades
        }

        init(from stack: LuaStack, at index: Int32) throws(LuaError) {
            let base = stack.top
            defer { stack.setTop(base) }
            guard stack.type(at: index) == .table, stack.pushField("show", of: index) == .boolean, let show = stack.bool(at: -1),
                  stack.pushField("upgrades", of: index) == .table else {
                throw LuaError(kind: .badResult, message: "expected { show = boolean, upgrades = { level, ... } }")
            }
            let list = stack.top
            var upgrades: [Int] = []
            for position in 1...max(1, stack.length(at: list)) where position <= stack.length(at: list) {
                stack.pushItem(position, of: list)
                guard let level = stack.integer(at: -1) else {
                    throw LuaError(kind: .badResult, message: "upgrades[\(position)]: expected an integer level")
                }
                upgrades.append(Int(level))
                stack.setTop(list)
            }
            self.show = show
            self.upgrades = upgrades
        }
    }

    /// One input of the rule.
    struct RuleInput: Sendable {
        var subscribed: Bool
        var groupLevel: Int
        var country: String
        var daysSinceInstall: Int
        var productIDs: [String]
    }

    static let productIDs = ["bench.premium", "bench.family", "bench.individual"]

    static func inputs() -> [RuleInput] {
        (0..<64).map { index in
            let level = index % 4
            return RuleInput(subscribed: level != 0, groupLevel: level, country: ["USA", "ESP", "DEU", "JPN"][index % 4],
                             daysSinceInstall: index * 3, productIDs: productIDs)
        }
    }

    static func context(for input: RuleInput) -> PolicyContext {
        var subscriptions: [String: SubscriptionSnapshot] = [:]
        if input.subscribed {
            subscriptions["BENCH"] = SubscriptionSnapshot(productID: input.productIDs[input.groupLevel - 1],
                                                          groupLevel: input.groupLevel, state: .subscribed,
                                                          expirationDate: Date(timeIntervalSince1970: 1_767_312_000))
        }
        return PolicyContext(
            now: Date(timeIntervalSince1970: 1_767_225_600), storefront: input.country,
            customer: CustomerContext(id: "bench-customer", seed: 42, statusKnown: true,
                                      entitlements: input.subscribed ? [input.productIDs[input.groupLevel - 1]] : [],
                                      subscriptions: subscriptions,
                                      attributes: ["days_since_install": .integer(Int64(input.daysSinceInstall))]))
    }

    /// The rule in Swift.
    static let swiftRule: @Sendable (RuleInput) -> UpgradeOffer = { input in
        let level = input.subscribed ? input.groupLevel : 0
        var upgrades: [Int] = []
        for candidate in 1...input.productIDs.count where !input.subscribed || candidate < level {
            upgrades.append(candidate)
        }
        return UpgradeOffer(show: !input.subscribed || level > 1, upgrades: upgrades)
    }
}
