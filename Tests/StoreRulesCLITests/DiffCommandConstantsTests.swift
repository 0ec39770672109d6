import Foundation
import Testing

/// `storerules diff` on rule changes only the policies' constants reveal: a storefront named in
/// the new rule, and a frequency cap on an event the catalog knows nothing of.
@Suite struct DiffCommandConstantsTests {
    private static let birds = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds")
    private static let statusCheck = "    if not ctx.customer.status_known then return false end\n"

    /// A copy of the Backyard Birds folder (policy, catalog, tests) with `rule` added to
    /// `show_merchandising` after its status check.
    private func birds(adding rule: String) throws -> URL {
        let policy = try String(contentsOf: Self.birds.appendingPathComponent("policy.lua"), encoding: .utf8)
        #expect(policy.contains(Self.statusCheck))
        var files: [String: String] = [:]
        for name in ["Products.storekit", "policy_test.lua"] {
            files[name] = try String(contentsOf: Self.birds.appendingPathComponent(name), encoding: .utf8)
        }
        return try CommandRunner.policyFolder(policy.replacingOccurrences(of: Self.statusCheck, with: Self.statusCheck + rule), files: files)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Runs `diff OLD NEW --json` over `show_merchandising`'s scenarios, expects exit 1 with
    /// the hook changed, and feeds every counterexample to `eval` on both folders; returns the
    /// counterexamples.
    private func changedMerchandising(_ old: URL, _ new: URL) throws -> [[String: Any]] {
        let result = try CommandRunner.run(["diff", old.path, new.path, "--json", "--limit", "3", "--hooks", "show_merchandising"])
        #expect(result.status == 1, "\(result.standardError)")
        let report = try json(result.standardOutput)
        let changed = try #require(report["changed"] as? [[String: Any]])
        #expect(changed.map { $0["hook"] as? String } == ["show_merchandising"])
        let examples = try #require(changed.first?["examples"] as? [[String: Any]])
        #expect(!examples.isEmpty)
        for example in examples {
            let input = try JSONSerialization.data(withJSONObject: try #require(example["input"]), options: [.sortedKeys])
            let arguments = try #require(example["args"] as? [Any]).flatMap { argument in
                ["--arg", String(decoding: try JSONSerialization.data(withJSONObject: argument, options: [.fragmentsAllowed]), as: UTF8.self)]
            }
            for (folder, expected) in [(old, example["old"]), (new, example["new"])] {
                let evaluated = try CommandRunner.run(["eval", folder.path, "show_merchandising", "--input", "-"] + arguments,
                                                      input: String(decoding: input, as: UTF8.self))
                #expect(evaluated.status == 0, "\(evaluated.standardError)")
                #expect(try json(evaluated.standardOutput)["result"] as? Bool == expected as? Bool)
            }
            #expect(example["old"] as? Bool == true && example["new"] as? Bool == false)
        }
        return examples
    }

    @Test func aRuleForTheStorefrontFRAIsAChangeEvalReproduces() throws {
        let new = try birds(adding: "    if ctx.storefront == \"FRA\" then return false end\n")
        let examples = try changedMerchandising(Self.birds, new)
        #expect(examples.allSatisfy { ($0["input"] as? [String: Any])?["storefront"] as? String == "FRA" })
        let text = try CommandRunner.run(["diff", Self.birds.path, new.path])
        #expect(text.status == 1)
        #expect(text.standardOutput.contains("show_merchandising: 5 of "), "\(text.standardOutput)")
        let unchanged = try #require(text.standardOutput.split(separator: "\n").first { $0.hasPrefix("unchanged: ") },
                                     "over every hook, the others are listed unchanged: \(text.standardOutput)")
        #expect(unchanged.contains("grant") && unchanged.contains("plan_icon") && !unchanged.contains("show_merchandising"))
    }

    @Test func aFrequencyCapOnPaywallShownIsAChangeFromTheThirdTimeOn() throws {
        let new = try birds(adding: """
            local shown = ctx.customer.events.paywall_shown
            if shown ~= nil and shown.count >= 3 then return false end

        """)
        let examples = try changedMerchandising(Self.birds, new)
        let counts = examples.map { example in
            ((((example["input"] as? [String: Any])?["customer"] as? [String: Any])?["events"] as? [String: Any])?["paywall_shown"]
                as? [String: Any])?["count"] as? Int
        }
        #expect(counts.first == 3, "the smallest counterexample is the threshold itself, as 2 decides as before")
        #expect(counts.allSatisfy { ($0 ?? 0) >= 3 })
    }
}
