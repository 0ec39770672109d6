import Foundation
@testable import StorePolicy
import Testing

/// ``HookRegistry``: every hook StoreRules knows is defined once, documented on a page of its
/// own with a worked rule, known to the lint, and shown by requests `eval --jsonl` reads.
@Suite struct HookRegistryTests {
    /// The package folder, three levels above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every registered hook has its page under docs/hooks, titled with its name and showing a worked rule")
    func everyHookHasItsPage() throws {
        for hook in HookRegistry.all {
            let page = Self.packageRoot.appendingPathComponent(hook.documentationPath)
            let text = try #require(try? String(contentsOf: page, encoding: .utf8), "\(hook.name) lacks its page \(hook.documentationPath)")
            #expect(text.hasPrefix("# `\(hook.name)("), "\(hook.documentationPath) is not titled with the hook's signature")
            #expect(text.contains("```lua\n"), "\(hook.documentationPath) shows no worked rule")
        }
    }

    @Test("every page under docs/hooks is a registered hook's, and the contract page links each")
    func everyPageIsARegisteredHooks() throws {
        let folder = Self.packageRoot.appendingPathComponent("docs/hooks")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
        #expect(Set(pages) == Set(HookRegistry.names.map { "\($0).md" }))
        let contract = try String(contentsOf: Self.packageRoot.appendingPathComponent("docs/policy.md"), encoding: .utf8)
        for name in HookRegistry.names {
            #expect(contract.contains("](hooks/\(name).md)"), "docs/policy.md does not link hooks/\(name).md")
        }
    }

    @Test("the registry names each hook once and finds it by name; a custom name is no known hook")
    func namesAreUnique() {
        #expect(Set(HookRegistry.names).count == HookRegistry.all.count)
        for hook in HookRegistry.all {
            #expect(HookRegistry.hook(named: hook.name) == hook)
        }
        #expect(HookRegistry.hook(named: "upgrade_offer") == nil)
    }

    @Test("the lint knows every registered hook, and still reports a key that is none")
    func theLintKnowsEveryHook() {
        let names = Set(HookRegistry.names)
        #expect(PolicyLint(keys: names, functions: names, declaredCustom: []).warnings.isEmpty)
        #expect(PolicyLint(keys: names.union(["show_merchandize"]), functions: names, declaredCustom: []).warnings
            == ["the policy table's key 'show_merchandize' is not a hook; did you mean 'show_merchandising'?"])
    }

    @Test("each hook's example requests are requests for it that the Backyard Birds policy decides")
    func exampleRequestsAreDecided() throws {
        let folder = BackyardBirdsLedger.folder
        let engine = try PolicyEngine(source: folder.policySource(), catalog: PolicyCatalog(try #require(try folder.loadCatalog())))
        for hook in HookRegistry.all {
            #expect(!hook.exampleRequests.isEmpty, "\(hook.name) has no example request")
            for line in hook.exampleRequests {
                let request = try HookRequest.decode(json: Data(line.utf8))
                #expect(request.hook == hook.name)
                let response = try request.decide(with: engine)
                #expect(response.source != "fallback", "\(line): \(response.fallbackReason ?? "")")
            }
        }
    }
}
