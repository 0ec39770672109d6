import Foundation
import StoreCore
import SQLiteLedger
@testable import StorePolicy
import Testing
import TestPrerequisites

/// `ctx.customer.events`: the frequency cap docs/policy.md shows — at most 3 times a week,
/// never twice within an hour.
@Suite struct EventFrequencyCapTests {
    /// The hook as docs/policy.md prints it.
    static let policy = """
        local policy = {}

        function policy.show_merchandising(ctx, placement)
          local shown = ctx.customer.events.paywall_shown
          if shown == nil then return true end
          if shown.last and ctx.now - shown.last < 3600 then return false end
          local this_week = 0
          for _, t in ipairs(shown.recent) do
            if ctx.now - t < 7 * 86400 then this_week = this_week + 1 end
          end
          return this_week < 3
        end

        return policy
        """

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func shows(after secondsAgo: [TimeInterval]) throws -> Bool {
        let engine = try makeEngine(Self.policy)
        let history = secondsAgo.isEmpty ? [:] : ["paywall_shown": EventHistory(recent: secondsAgo.map { Self.now.addingTimeInterval(-$0) })]
        let context = PolicyContext(now: Self.now, customer: CustomerContext(id: "c1", statusKnown: true, events: history))
        let decision = engine.showMerchandising(context, placement: "home")
        #expect(decision.failure == nil, "\(String(describing: decision.failure))")
        return decision.value
    }

    @Test("the paywall shows to a customer who never saw it, and not again within the hour")
    func hourlyCap() throws {
        #expect(try shows(after: []))
        #expect(try !shows(after: [600]))
        #expect(try shows(after: [3_700]))
    }

    @Test("at most three times a week")
    func weeklyCap() throws {
        let day: TimeInterval = 86_400
        #expect(try shows(after: [2 * day, 3 * day]))
        #expect(try !shows(after: [2 * day, 3 * day, 4 * day]))
        #expect(try shows(after: [2 * day, 3 * day, 8 * day, 9 * day]))
    }

    @Test("a context's events read from JSON: count, last and recent newest first, unknown fields refused")
    func eventsFromJSON() throws {
        let context = try PolicyContext.decode(json: Data(#"""
            {"customer": {"events": {"paywall_shown": {"recent": [1799990000, 1799999000]}}}}
            """#.utf8))
        let history = try #require(context.customer.events["paywall_shown"])
        #expect(history.count == 2)
        #expect(history.last == Date(timeIntervalSince1970: 1_799_999_000))
        #expect(history.recent.first == Date(timeIntervalSince1970: 1_799_999_000))
        let refused = contextError(#"{"customer": {"events": {"paywall_shown": {"recnt": []}}}}"#)
        #expect(refused?.description.contains("did you mean 'recent'") == true, "\(String(describing: refused))")
        #expect(contextError(#"{"customer": {"events": {"paywall_shown": {"count": -1}}}}"#) != nil)
    }

    @Test("events the ledger recorded reach the hook through the customer's state")
    func eventsFromTheLedger() throws {
        let directory = try TestFolders.make("events")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try Ledger(path: directory.appendingPathComponent("ledger.sqlite").path)
        for minutes in [3 * 1_440.0, 2 * 1_440.0, 30] {
            try ledger.recordEvent(customerID: "ana", name: "paywall_shown", placement: "home",
                                   at: Self.now.addingTimeInterval(-minutes * 60))
        }
        let customer = try CustomerContext(customerID: "ana", ledger: ledger, at: Self.now)
        #expect(customer.events["paywall_shown"]?.count == 3)
        let engine = try makeEngine(Self.policy)
        #expect(!engine.showMerchandising(PolicyContext(now: Self.now, customer: customer), placement: "home").value)
    }
}
