import Foundation
import Testing

@Suite struct RunCommandTests {
    private func steps(_ example: String) throws -> [[String: Any]] {
        let result = try CommandRunner.run(["run", "Examples/\(example)", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    private func plans(_ step: [String: Any]) -> [String] {
        let plan = step["plan"] as? [String: Any]
        let stores = plan?["subscription_stores"] as? [[String: Any]] ?? []
        return (stores.first?["plans"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    private func showsOfferCard(_ step: [String: Any]) -> Bool? {
        (step["plan"] as? [String: Any])?["show_merchandising"] as? Bool
    }

    @Test func theBackyardBirdsJourneyTellsItsStory() throws {
        let steps = try steps("BackyardBirds")
        try #require(steps.count == 13)
        #expect(showsOfferCard(steps[0]) == true, "a new bird watcher sees the pass offer")
        #expect(plans(steps[0]) == ["pass.premium", "pass.family", "pass.individual"])
        #expect((steps[1]["balances"] as? [String: Int])?["pellet"] == 5, "a box of pellets gives 5")
        #expect(showsOfferCard(steps[2]) == false, "subscribing hides the offer card")
        #expect(plans(steps[3]) == ["pass.premium", "pass.family"], "the upgrade sheet offers Family and Premium")
        let sheet = ((steps[3]["plan"] as? [String: Any])?["subscription_stores"] as? [[String: Any]])?.first
        #expect((sheet?["plans"] as? [[String: Any]])?.compactMap { $0["icon"] as? String } == ["bird", "person.2"])
        #expect(plans(steps[4]).isEmpty, "Premium has no upgrade left")
        for index in [6, 7] {
            #expect((steps[index]["features"] as? [String])?.contains("rare_birds") == true, "billing trouble keeps access")
        }
        #expect(showsOfferCard(steps[8]) == true, "expiry brings the offer back")
        #expect((steps[8]["features"] as? [String])?.isEmpty == true)
        let card = (((steps[10]["plan"] as? [String: Any])?["subscription_stores"] as? [[String: Any]])?.first)?["win_back"]
        #expect((card as? [String: Any])?["offer_id"] as? String == "premium.welcome.back", "Premium lapsed: the win-back card")
        #expect((steps[11]["features"] as? [String])?.contains("rare_birds") == true, "redeeming the offer brings Premium back")
        #expect(steps.allSatisfy { $0["error"] == nil })
    }

    @Test func theCaffeinePalJourneyEndsWithTheRecipeItBought() throws {
        let steps = try steps("CaffeinePal")
        try #require(steps.count == 8)
        #expect((steps[4]["features"] as? [String])?.contains("recipe.latte") == true, "Pro unlocks every recipe")
        #expect(steps.last?["features"] as? [String] == ["recipe.cortado"])
    }

    @Test func htmlWritesAStorefrontPagePerStep() throws {
        let pages = FileManager.default.temporaryDirectory.appendingPathComponent("run-pages-\(UUID().uuidString)")
        let result = try CommandRunner.run(["run", "Examples/CaffeinePal", "--html", pages.path], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted()
        #expect(names == (1...8).map { String(format: "step-%02d.html", $0) })
        let fifth = try String(contentsOf: pages.appendingPathComponent("step-05.html"), encoding: .utf8)
        #expect(fifth.contains("Subscribes to Pro"))
        #expect(fifth.contains("data-plan=\"pro.annual\""))
        #expect(result.standardOutput.contains("storefront pages in \(pages.path)"))
    }

    @Test func aBrokenJourneyIsOneClearLine() throws {
        let folder = try CommandRunner.policyFolder("return {}", files: ["journey.json": #"{"steps": [{"action": "dance"}]}"#])
        let catalog = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds/Products.storekit")
        try FileManager.default.copyItem(at: catalog, to: folder.appendingPathComponent("Products.storekit"))
        let result = try CommandRunner.run(["run", folder.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("unknown action \"dance\""), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("without --ledger the run removes its temporary folder, signing keys included; with it, keeps the ledger, the store state and the certificates")
    func theTemporaryFolderIsRemoved() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("run-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try CommandRunner.run(["run", "Examples/CaffeinePal", "--json"], environment: ["TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)

        let ledger = temporary.appendingPathComponent("kept.sqlite").path
        let kept = try CommandRunner.run(["run", "Examples/CaffeinePal", "--json", "--ledger", ledger], environment: ["TMPDIR": temporary.path])
        #expect(kept.status == 0, "\(kept.standardError)")
        #expect(FileManager.default.fileExists(atPath: ledger))
        #expect(FileManager.default.fileExists(atPath: ledger + ".certificates/root-certificate.pem"))
        #expect(FileManager.default.fileExists(atPath: ledger + ".store.sqlite"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).allSatisfy { $0.hasPrefix("kept.sqlite") })
    }
}
