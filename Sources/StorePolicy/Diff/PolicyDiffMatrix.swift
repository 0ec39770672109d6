import Foundation
import LuaBridge

/// The scenarios `storerules diff` asks both policies about, generated from the catalogs and
/// from the constants of the two policies and their tests.
///
/// Customers, smallest first: status unknown; known with nothing; owning each non-consumable
/// or non-renewing product; holding a balance of each item the policies grant; then each
/// subscription in each state (`subscribed`, `expired`, `in_billing_retry`, `in_grace_period`,
/// `revoked`), auto-renew on and off, intro-eligible or not. Each customer shops at the
/// catalogs' storefronts and a few others, with seed 0 — or with every seed from 0 to 99 for a
/// hook whose decisions change with the seed under either policy. Each known hook is asked
/// with every argument list its ``PolicyHook`` definition makes from ``HookScenarioInputs``
/// (a hook of the policy's own, with none).
///
/// Then each value of ``PolicyDiffVariation`` — a storefront, locale or environment, an
/// attribute, an event history or a balance drawn from ``PolicyConstants`` — is tried alone on
/// the base customers (known with nothing, and subscribed to each subscription product) at the
/// first storefront with seed 0, with every argument (for a hook that decides about a subject its arguments give, on the
/// first base customer only): one new dimension at a time, so the matrix grows by the number of
/// values, never by their product.
struct PolicyDiffMatrix {
    static let states: [SubscriptionState] = [.subscribed, .expired, .inBillingRetry, .inGracePeriod, .revoked]
    static let otherStorefronts = ["USA", "GBR", "JPN"]
    static let probeSeeds = [0, 13, 29, 50, 71, 99]

    private let inputs: HookScenarioInputs
    private let storefronts: [String]
    private let customers: [CustomerContext]
    private let baseCustomers: [CustomerContext]
    private let variations: [PolicyDiffVariation]
    private let engines: [PolicyEngine]

    init(old: PolicyDiff.Side, new: PolicyDiff.Side, placements: [String]?, engines: [PolicyEngine]) {
        var byID = old.catalog.products
        byID.merge(new.catalog.products) { kept, _ in kept }
        let products = byID.values.sorted { $0.id < $1.id }
        var storefronts: [String] = []
        for storefront in [old.storefront, new.storefront].compactMap({ $0 }) + Self.otherStorefronts where !storefronts.contains(storefront) {
            storefronts.append(storefront)
        }
        self.storefronts = storefronts
        self.engines = engines
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let items = Self.grantedItems(products, engines: engines, now: now)
        customers = Self.customers(products: products, items: items, now: now)
        baseCustomers = Self.baseCustomers(products: products, now: now)
        let constants = PolicyConstants(oldSource: old.source.text, newSource: new.source.text, tests: old.tests + new.tests)
        inputs = HookScenarioInputs(products: products, groups: Set(old.catalog.groups.keys).union(new.catalog.groups.keys).sorted(),
                                    placements: placements ?? Self.placements(testedIn: old.tests + new.tests),
                                    refundReasons: Self.refundReasons(namedIn: constants.strings), now: now)
        variations = PolicyDiffVariation.all(from: constants, storefronts: storefronts, items: items, defaultLocale: PolicyContext().locale)
    }

    /// One scenario: the context, and an argument list with where it is kept once decoded
    /// (shared by every scenario asked with that list).
    typealias Scenario = (context: PolicyContext, arguments: [LuaValue], cache: HookArgumentCache)

    /// An argument list and its cache.
    private typealias ArgumentList = (values: [LuaValue], cache: HookArgumentCache)

    /// Every scenario `hook` is asked in, smallest customer first.
    func scenarios(for hook: String) -> [Scenario] {
        let argumentLists = arguments(for: hook).map { ArgumentList($0, HookArgumentCache()) }
        let seeds = dependsOnSeed(hook, argumentLists) ? Array(0...99) : [0]
        var scenarios: [Scenario] = []
        for customer in customers {
            for seed in seeds {
                for storefront in storefronts {
                    var shopper = customer
                    shopper.seed = seed
                    let context = PolicyContext(now: inputs.now, storefront: storefront, customer: shopper)
                    for arguments in argumentLists { scenarios.append((context, arguments.values, arguments.cache)) }
                }
            }
        }
        // A hook that decides about a subject its arguments give (a purchase, a subscription)
        // tries each variation on the first base customer only: its arguments already multiply
        // the matrix.
        let takesItsSubject = HookRegistry.hook(named: hook)?.decidesAboutItsArguments == true
        let variationCustomers = takesItsSubject ? Array(baseCustomers.prefix(1)) : baseCustomers
        for variation in variations {
            for customer in variationCustomers {
                var context = PolicyContext(now: inputs.now, storefront: storefronts[0], customer: customer)
                variation.apply(to: &context)
                for arguments in argumentLists { scenarios.append((context, arguments.values, arguments.cache)) }
            }
        }
        return scenarios
    }

    /// Whether either policy decides `hook` differently for some customer as the seed changes.
    private func dependsOnSeed(_ hook: String, _ argumentLists: [ArgumentList]) -> Bool {
        for engine in engines {
            for customer in customers {
                for arguments in argumentLists {
                    var outcomes: [PolicyDiff.Outcome] = []
                    for seed in Self.probeSeeds {
                        var shopper = customer
                        shopper.seed = seed
                        let request = HookRequest(hook: hook, context: PolicyContext(now: inputs.now, storefront: storefronts[0], customer: shopper),
                                                  arguments: arguments.values, argumentCache: arguments.cache)
                        outcomes.append(PolicyDiff.outcome(request, engine))
                    }
                    if outcomes.contains(where: { !$0.sameDecision(as: outcomes[0]) }) { return true }
                }
            }
        }
        return false
    }

    /// The argument lists a hook is asked with: a known hook's scenarios, none for any other.
    private func arguments(for hook: String) -> [[LuaValue]] {
        HookRegistry.hook(named: hook)?.scenarios(inputs) ?? [[]]
    }

    /// The reasons a customer gives Apple for a refund request, as `consumptionRequestReason` spells them.
    static let refundReasons = ["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER"]

    /// The refund reasons `consumption` is asked with: those the policies or their tests name,
    /// which they may decide on, and `OTHER`, which stands for every reason they do not name.
    static func refundReasons(namedIn strings: [String]) -> [String] {
        refundReasons.filter { $0 == "OTHER" || strings.contains($0) }
    }

    /// The placements `show_merchandising` is called with in the tests, else `home` and `store`.
    static func placements(testedIn tests: [String]) -> [String] {
        var found: [String] = []
        let pattern = /show_merchandising\([^,()]*(?:\([^()]*\))?[^,()]*,\s*"([^"]+)"/
        for text in tests {
            for match in text.matches(of: pattern) where !found.contains(String(match.1)) {
                found.append(String(match.1))
            }
        }
        return found.isEmpty ? ["home", "store"] : found.sorted()
    }

    /// The items either policy grants for a consumable, for the balances customers hold.
    private static func grantedItems(_ products: [PolicyProduct], engines: [PolicyEngine], now: Date) -> [String] {
        var items = Set<String>()
        for product in products where product.type == "consumable" {
            for engine in engines {
                let request = HookRequest(hook: PolicyHook.grant.name, context: PolicyContext(now: now, customer: CustomerContext(statusKnown: true)),
                                          arguments: [HookScenarioInputs.transaction(product.id, quantity: 1, at: now)])
                if case .result(.grants(let grants)) = PolicyDiff.outcome(request, engine) {
                    items.formUnion(grants.map(\.item))
                }
            }
        }
        return items.sorted()
    }

    /// The customers each variation is tried on: known with nothing, and subscribed (renewing,
    /// not intro-eligible) to each subscription product.
    private static func baseCustomers(products: [PolicyProduct], now: Date) -> [CustomerContext] {
        let id = "diff-customer"
        var customers = [CustomerContext(id: id, seed: 0, statusKnown: true)]
        for product in products {
            guard let subscription = product.subscription else { continue }
            customers.append(CustomerContext(
                id: id, seed: 0, statusKnown: true, entitlements: [product.id],
                subscriptions: [subscription.groupId: SubscriptionSnapshot(
                    productID: product.id, groupLevel: subscription.groupLevel, state: .subscribed,
                    expirationDate: now.addingTimeInterval(30 * 86_400))]))
        }
        return customers
    }

    private static func customers(products: [PolicyProduct], items: [String], now: Date) -> [CustomerContext] {
        let id = "diff-customer"
        var customers = [CustomerContext(id: id, statusKnown: false), CustomerContext(id: id, statusKnown: true)]
        for product in products where product.type == "non_consumable" || product.type == "non_renewing" {
            customers.append(CustomerContext(id: id, statusKnown: true, entitlements: [product.id]))
        }
        for item in items {
            customers.append(CustomerContext(id: id, statusKnown: true, balances: [item: 10]))
        }
        for product in products {
            guard let subscription = product.subscription else { continue }
            for state in states {
                for renews in [true, false] {
                    for introEligible in [false, true] {
                        let expires = now.addingTimeInterval(state == .expired || state == .revoked ? -86_400 : 30 * 86_400)
                        customers.append(CustomerContext(
                            id: id, statusKnown: true, entitlements: state.isEntitled ? [product.id] : [],
                            subscriptions: [subscription.groupId: SubscriptionSnapshot(
                                productID: product.id, groupLevel: subscription.groupLevel, state: state, willAutoRenew: renews,
                                expirationDate: expires, introEligible: introEligible)]))
                    }
                }
            }
        }
        return customers
    }
}
