import Foundation
import StoreCore
import SQLiteLedger
import StoreService
import StoreTesting
import Testing
import TestPrerequisites

/// A developer who advances the local store's clock sees what it lapsed through a service that
/// follows the store's clock, and only through one that does.
@Suite struct StoreClockLoopTests {
    /// Ana's Premium pass, set not to renew, lapsed by a month of the store's clock, told to the service.
    static func lapsedPass(_ loop: ServiceLoop) throws {
        let before = try loop.store.notifications().count
        guard case .success = try loop.store.purchase("pass.premium", customer: "ana", options: [.appAccountToken(loop.token)]) else {
            throw ServiceLoop.Failure()
        }
        try loop.store.setAutoRenew(false, customer: "ana", groupID: "6F3A93AB")
        try loop.store.advance(by: StoreDuration(iso8601: "P1M")!)
        try loop.deliver(try loop.store.notifications(after: before))
    }

    @Test("a service following the store's clock shows the win-back card a month after the pass lapsed on it")
    func followingTheStoreClockShowsTheLapse() throws {
        let loop = try ServiceLoop(serviceFollowsStoreClock: true)
        try Self.lapsedPass(loop)
        let store = try loop.store.now()
        #expect(abs(loop.service.clock().timeIntervalSince(store)) < 60)
        let plan = try loop.service.storefrontPlan(customerID: "ana", placement: "home")
        #expect(plan.subscriptionStores.first?.winBack?.offerID == "premium.welcome.back")
    }

    @Test("a service on the host's clock still sees the pass active: the store's month has not passed for it")
    func theHostClockDoesNotSeeTheLapse() throws {
        let loop = try ServiceLoop()
        try Self.lapsedPass(loop)
        let plan = try loop.service.storefrontPlan(customerID: "ana", placement: "home")
        #expect(plan.subscriptionStores.first?.winBack == nil)
    }

    @Test("the clock reader refuses a missing file and a file that is not a store's state, naming the file")
    func readerRefusesWhatIsNotAStoreState() throws {
        let directory = try TestFolders.make("store-clock")
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appending(path: "missing.sqlite").path
        #expect { try LocalStoreClockReader(statePath: missing) } throws: { "\($0)".contains("\(missing) does not exist") }
        #expect(!FileManager.default.fileExists(atPath: missing))
        let ledger = directory.appending(path: "ledger.sqlite").path
        _ = try Ledger(path: ledger)
        #expect { try LocalStoreClockReader(statePath: ledger) } throws: { "\($0)".contains("is not a local store's state file") }
    }
}
