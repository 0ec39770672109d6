import Dispatch
import Foundation
import StoreCore
import StorePolicy
import Synchronization

extension PolicyBench {
    /// What the reloads measured.
    struct ReloadFigures {
        var median: Double
        var maximum: Double
        var lines: Int
        var decisions: Int
        var failures: Int
    }

    /// Reloads a generated policy ``reloads`` times into an engine with ``idleStates`` idle
    /// states while two threads decide with it, timing each reload and counting the
    /// decisions that failed.
    static func measureReloads(catalog: PolicyCatalog) throws -> ReloadFigures {
        let first = generatedPolicy(revision: 0)
        let engine: PolicyEngine
        do {
            engine = try PolicyEngine(source: PolicySource(text: first, chunkName: "generated.lua"),
                                      catalog: catalog, maximumIdleStates: idleStates)
        } catch {
            throw BenchFailure("the generated policy does not load: \(error)")
        }
        let context = try subscriber(of: catalog)
        let stop = Atomic<Bool>(false)
        let decisions = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let deciders = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: deciders) {
                while !stop.load(ordering: .relaxed) {
                    do {
                        _ = try engine.call("score", context: context, arguments: [])
                    } catch {
                        failures.add(1, ordering: .relaxed)
                    }
                    decisions.add(1, ordering: .relaxed)
                }
            }
        }
        var milliseconds: [Double] = []
        let clock = ContinuousClock()
        do {
            for revision in 1...reloads {
                try engine.prepareIdleStates(idleStates)
                let source = PolicySource(text: generatedPolicy(revision: revision), chunkName: "generated.lua")
                let started = clock.now
                try engine.reload(source)
                milliseconds.append((clock.now - started).seconds * 1_000)
            }
        } catch {
            stop.store(true, ordering: .relaxed)
            deciders.wait()
            throw BenchFailure("a reload of the generated policy failed: \(error)")
        }
        stop.store(true, ordering: .relaxed)
        deciders.wait()
        milliseconds.sort()
        return ReloadFigures(median: milliseconds[milliseconds.count / 2], maximum: milliseconds.last ?? 0,
                             lines: first.split(separator: "\n", omittingEmptySubsequences: false).count,
                             decisions: decisions.load(ordering: .relaxed), failures: failures.load(ordering: .relaxed))
    }

    /// A policy of ``generatedLines`` lines: a table of storefront rules, helper functions
    /// that score a customer, the display hooks, and a custom `score` hook that runs them.
    /// `revision` changes its scores, so each reload swaps in a new version.
    static func generatedPolicy(revision: Int) -> String {
        var lines = ["-- generated for storerules bench, revision \(revision)", "local policy = { custom_hooks = { \"score\" } }", ""]
        let countries = ["USA", "GBR", "JPN", "DEU", "FRA", "ESP", "ITA", "CAN", "AUS", "BRA"]
        lines.append("local weights = {")
        for (index, country) in countries.enumerated() {
            lines.append("    \(country) = \(index + revision % 7),")
        }
        lines.append("}")
        lines.append("")
        var helper = 0
        // Each helper is eight lines; leave room for the hooks at the end.
        while lines.count + 8 + 30 <= generatedLines {
            helper += 1
            lines += [
                "local function rule_\(helper)(ctx)",
                "    local customer = ctx.customer",
                "    local weight = weights[ctx.storefront] or \(helper % 5)",
                "    if customer.status_known and (customer.seed + \(helper)) % \(helper % 9 + 2) == 0 then",
                "        return weight + \(helper % 11 + revision % 3)",
                "    end",
                "    return \(helper % 4)",
                "end",
            ]
        }
        lines += [
            "",
            "function policy.score(ctx)",
            "    local total = 0",
        ]
        for index in stride(from: 1, through: helper, by: max(1, helper / 8)) {
            lines.append("    total = total + rule_\(index)(ctx)")
        }
        lines += [
            "    return total",
            "end",
            "",
            "function policy.show_merchandising(ctx, placement)",
            "    return ctx.customer.status_known and policy.score(ctx) > \(revision % 5)",
            "end",
            "",
            "function policy.plan_icon(ctx, plan)",
            "    if plan.subscription and plan.subscription.group_level == 1 then return \"crown\" end",
            "    return nil",
            "end",
            "",
            "function policy.features(ctx)",
            "    local unlocked = {}",
            "    for _, product_id in ipairs(ctx.customer.entitlements) do unlocked[#unlocked + 1] = product_id end",
            "    return unlocked",
            "end",
            "",
            "return policy",
        ]
        while lines.count < generatedLines {
            lines.insert("", at: lines.count - 1)
        }
        return lines.joined(separator: "\n")
    }
}
