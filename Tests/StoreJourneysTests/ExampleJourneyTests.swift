import Foundation
import SQLiteLedger
import StoreCore
import StoreJourneys
import StorePolicy
import Testing
import TestPrerequisites

/// The examples' journeys, played in process into a fresh SQLite ledger: each step's storefront,
/// balances and features tell the story its journey.json tells.
@Suite struct ExampleJourneyTests {
    /// The reports of the journey of `Examples/<example>`.
    static func steps(_ example: String) throws -> [JourneyStepReport] {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = try PolicyFolder(packageRoot.appending(path: "Examples/\(example)"))
        let journey = try Journey(contentsOf: folder.url.appending(path: "journey.json"))
        let directory = try TestFolders.make("journey")
        defer { try? FileManager.default.removeItem(at: directory) }
        let runner = try JourneyRunner(folder: folder, journey: journey, ledger: try Ledger(path: directory.appending(path: "ledger.sqlite").path),
                                       storeStatePath: directory.appending(path: "store.sqlite").path,
                                       certificates: directory.appending(path: "certificates"))
        return runner.run()
    }

    /// The ids of the plans of the step's first subscription store.
    static func plans(_ step: JourneyStepReport) -> [String] {
        step.plan.subscriptionStores.first?.plans.map(\.id) ?? []
    }

    @Test func theBackyardBirdsJourneyTellsItsStory() throws {
        let steps = try Self.steps("BackyardBirds")
        try #require(steps.count == 13)
        #expect(steps[0].plan.showMerchandising == true, "a new bird watcher sees the pass offer")
        #expect(Self.plans(steps[0]) == ["pass.premium", "pass.family", "pass.individual"])
        #expect(steps[1].balances["pellet"] == 5, "a box of pellets gives 5")
        #expect(steps[2].plan.showMerchandising == false, "subscribing hides the offer card")
        #expect(Self.plans(steps[3]) == ["pass.premium", "pass.family"], "the upgrade sheet offers Family and Premium")
        #expect(steps[3].plan.subscriptionStores.first?.plans.compactMap(\.icon) == ["bird", "person.2"])
        #expect(Self.plans(steps[4]).isEmpty, "Premium has no upgrade left")
        for index in [6, 7] {
            #expect(steps[index].features.contains("rare_birds"), "billing trouble keeps access")
        }
        #expect(steps[8].plan.showMerchandising == true, "expiry brings the offer back")
        #expect(steps[8].features.isEmpty)
        #expect(steps[10].plan.subscriptionStores.first?.winBack?.offerID == "premium.welcome.back", "Premium lapsed: the win-back card")
        #expect(steps[11].features.contains("rare_birds"), "redeeming the offer brings Premium back")
        #expect(steps.allSatisfy { $0.error == nil }, "\(steps.compactMap(\.error))")
    }

    @Test func theCaffeinePalJourneyEndsWithTheRecipeItBought() throws {
        let steps = try Self.steps("CaffeinePal")
        try #require(steps.count == 8)
        #expect(steps[4].features.contains("recipe.latte"), "Pro unlocks every recipe")
        #expect(steps.last?.features == ["recipe.cortado"])
    }
}
