import Foundation
import Testing

/// `storerules diff`: its exit statuses, printed report and options. What a comparison decides
/// is tested in process (PolicyDiffScenarioTests, PolicyDiffChangeTests).
@Suite struct DiffCommandTests {
    private static let birds = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds")

    /// A copy of the Backyard Birds folder with `policy.lua` edited by `edit`.
    private func editedBirds(_ edit: (String) -> String) throws -> URL {
        let policy = try String(contentsOf: Self.birds.appendingPathComponent("policy.lua"), encoding: .utf8)
        let catalog = try String(contentsOf: Self.birds.appendingPathComponent("Products.storekit"), encoding: .utf8)
        let edited = edit(policy)
        #expect(edited != policy, "the edit changed the policy")
        return try CommandRunner.policyFolder(edited, files: ["Products.storekit": catalog])
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func aPolicyComparedWithItselfDiffersNowhereAndExitsZero() throws {
        let result = try CommandRunner.run(["diff", Self.birds.path, Self.birds.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("no decision differs"))
        #expect(result.standardOutput.contains("unchanged: show_merchandising, visible_relationships, plan_icon, grant"))
    }

    @Test func everyCounterexampleReproducesTheOldAndTheNewDecisionThroughEval() throws {
        let newFolder = try editedBirds { $0.replacingOccurrences(of: #"["pass.premium"]    = "bird","#, with: #"["pass.premium"]    = "bird.fill","#) }
        let result = try CommandRunner.run(["diff", Self.birds.path, newFolder.path, "--json", "--limit", "4"])
        #expect(result.status == 1, "\(result.standardError)")
        let report = try json(result.standardOutput)
        let changed = try #require(report["changed"] as? [[String: Any]])
        #expect(changed.map { $0["hook"] as? String } == ["plan_icon"])
        #expect((report["unchanged"] as? [String])?.contains("grant") == true)
        #expect((report["scenarios"] as? Int ?? 0) > 1_000)
        let change = try #require(changed.first)
        #expect((change["scenarios_changed"] as? Int ?? 0) > 0)
        let examples = try #require(change["examples"] as? [[String: Any]])
        #expect(examples.count == 4)
        for example in examples {
            let input = try JSONSerialization.data(withJSONObject: try #require(example["input"]), options: [.sortedKeys])
            let arguments = try #require(example["args"] as? [Any]).flatMap { argument in
                ["--arg", String(decoding: try JSONSerialization.data(withJSONObject: argument, options: [.fragmentsAllowed]), as: UTF8.self)]
            }
            let old = try #require(example["old"] as? String, "a counterexample names the old result")
            let new = try #require(example["new"] as? String, "a counterexample names the new result")
            #expect(old != new, "a counterexample is a scenario whose result changed")
            for (folder, expected) in [(Self.birds, old), (newFolder, new)] {
                let evaluated = try CommandRunner.run(["eval", folder.path, "plan_icon", "--input", "-"] + arguments,
                                                      input: String(decoding: input, as: UTF8.self))
                #expect(evaluated.status == 0, "\(evaluated.standardError)")
                let printed = try json(evaluated.standardOutput)
                #expect(printed["result"] as? String == expected)
            }
        }
    }

    @Test func theHooksAndPlacementsOptionsChooseWhatIsComparedAndAFailureIsPrintedAsAnError() throws {
        let old = try CommandRunner.policyFolder("""
        return {
            show_merchandising = function(ctx, placement) return ctx.customer.seed < 50 end,
            features = function(ctx) return {} end,
        }
        """)
        let new = try CommandRunner.policyFolder("""
        return {
            show_merchandising = function(ctx, placement) return ctx.customer.seed < 40 end,
            features = function(ctx) error("features are down") end,
        }
        """)
        let result = try CommandRunner.run(["diff", old.path, new.path, "--json", "--hooks", "show_merchandising,features",
                                            "--placements", "home"])
        #expect(result.status == 1, "\(result.standardError)")
        let changed = try #require(try json(result.standardOutput)["changed"] as? [[String: Any]])
        #expect(Set(changed.compactMap { $0["hook"] as? String }) == ["show_merchandising", "features"])
        let failing = try #require(changed.first { $0["hook"] as? String == "features" })
        let example = try #require((failing["examples"] as? [[String: Any]])?.first)
        #expect((example["new"] as? [String: Any])?["error"] as? String != nil, "a failure is printed as {\"error\": ...}")
    }

    @Test func aMissingFolderOrAnUnknownHookExitsTwo() throws {
        #expect(try CommandRunner.run(["diff", Self.birds.path, "/nonexistent/policy"]).status == 2)
        let unknown = try CommandRunner.run(["diff", Self.birds.path, Self.birds.path, "--hooks", "show_merchandize"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("show_merchandize"))
    }

    @Test func aMistypedHookExitsTwoWithOneLineNamingTheNearestHook() throws {
        let result = try CommandRunner.run(["diff", Self.birds.path, Self.birds.path, "--hooks", "plan_icon,show_merchandize"])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.hasSuffix("neither policy defines a hook named 'show_merchandize'; did you mean 'show_merchandising'?") == true,
                "\(result.standardError)")
    }
}
