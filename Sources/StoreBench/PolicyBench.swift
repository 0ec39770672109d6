import Dispatch
import Foundation
import StoreCore
import StorePolicy
import Synchronization

/// The policy section of `storerules bench`: what a storefront plan costs against its hooks
/// called one by one, how long a reload takes while threads decide, and how much memory one
/// pooled Lua state holds.
public enum PolicyBench {
    /// Plans per measurement round.
    static let plans = 2_000
    /// Reloads measured.
    public static let reloads = 100
    /// Idle states the engine has before each reload.
    public static let idleStates = 8
    /// Lines of the generated policy the reloads swap in.
    public static let generatedLines = 500

    /// Measures the section over the Backyard Birds folder (or `folder`).
    ///
    /// - Throws: ``BenchFailure`` when the folder does not load, a plan's hook fails, or a
    ///   reload fails.
    public static func measure(folder: URL?) throws -> PolicyBenchFigures {
        let folder = folder ?? ServiceLoadTest.exampleFolder
        let engine: PolicyEngine
        let catalog: PolicyCatalog
        do {
            let policyFolder = try PolicyFolder(folder)
            catalog = try policyFolder.loadCatalog().map(PolicyCatalog.init) ?? .empty
            engine = try PolicyEngine(source: policyFolder.policySource(), catalog: catalog)
        } catch {
            throw BenchFailure("\(folder.path) does not load: \(error)")
        }
        let context = try subscriber(of: catalog)
        let plan = engine.storefrontPlan(context, placement: "home")
        if let failed = plan.decisions.first(where: { $0.source == "fallback" }) {
            throw BenchFailure("the storefront plan's \(failed.hook) failed: \(failed.reason ?? "")")
        }
        let calls = hookCalls(of: plan, engine: engine)

        var planNanoseconds = Double.infinity
        var hooksNanoseconds = Double.infinity
        for _ in 0..<BenchRounds.count {
            planNanoseconds = min(planNanoseconds, try DecisionBench.time(plans) { _ in
                keep(engine.storefrontPlan(context, placement: "home"))
            })
            hooksNanoseconds = min(hooksNanoseconds, try DecisionBench.time(plans) { _ in
                for call in calls { call(context) }
            })
        }
        _ = engine.storefrontPlan(context, placement: "home")
        let memory = engine.stateMemoryInUse() ?? 0

        let reload = try measureReloads(catalog: catalog)
        return PolicyBenchFigures(
            storefrontPlanMicroseconds: planNanoseconds / 1_000, storefrontHooksMicroseconds: hooksNanoseconds / 1_000,
            storefrontHookCalls: calls.count, storefrontPlanToHooksRatio: planNanoseconds / hooksNanoseconds,
            reloadMilliseconds: reload.median, reloadMaximumMilliseconds: reload.maximum, reloadPolicyLines: reload.lines,
            reloadIdleStates: idleStates, reloads: reloads, decisionsDuringReloads: reload.decisions,
            failedDecisionsDuringReloads: reload.failures, stateMemoryBytes: memory)
    }

    /// A subscriber at the lowest level of the catalog's first group, renewing, with what it
    /// owns: a plan that asks every kind of hook.
    static func subscriber(of catalog: PolicyCatalog) throws -> PolicyContext {
        guard let group = catalog.groups.values.sorted(by: { $0.id < $1.id }).first,
              let productID = group.products.max(by: {
                  (catalog.products[$0]?.subscription?.groupLevel ?? 0) < (catalog.products[$1]?.subscription?.groupLevel ?? 0)
              }),
              let level = catalog.products[productID]?.subscription?.groupLevel else {
            throw BenchFailure("the catalog has no subscription group for a subscriber's storefront plan")
        }
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        return PolicyContext(now: now, customer: CustomerContext(
            id: "bench-subscriber", statusKnown: true, entitlements: [productID],
            subscriptions: [group.id: SubscriptionSnapshot(productID: productID, groupLevel: level, state: .subscribed,
                                                           expirationDate: now.addingTimeInterval(86_400 * 20))],
            balances: ["bench.item": 3], attributes: ["days_since_install": .integer(40)]))
    }

    /// The hooks `plan` asked, as calls of the engine's hook methods: merchandising, each
    /// store product's style and icon, the store's buttons, and for each group its
    /// relationships, each plan's icon and the group's buttons.
    static func hookCalls(of plan: StorefrontPlan, engine: PolicyEngine) -> [(PolicyContext) -> Void] {
        var calls: [(PolicyContext) -> Void] = [{ keep(engine.showMerchandising($0, placement: plan.placement)) }]
        for product in plan.products {
            calls.append { keep(engine.productStyle($0, productID: product.id)) }
            calls.append { keep(engine.planIcon($0, productID: product.id)) }
        }
        calls.append { keep(engine.storeButtons($0, view: .store)) }
        for store in plan.subscriptionStores {
            calls.append { keep(engine.visibleRelationships($0, groupID: store.groupID)) }
            for subscriptionPlan in store.plans {
                calls.append { keep(engine.planIcon($0, productID: subscriptionPlan.id)) }
            }
            calls.append { keep(engine.storeButtons($0, view: .subscriptionStore)) }
        }
        return calls
    }
}
