import Foundation
import StoreCore
import Testing

/// Merchandising events on every storage: recorded, summarized and copied.
@Suite struct LedgerEventTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("events are counted by name with the latest time and the latest 50, newest first", arguments: LedgerBackend.available)
    func summaries(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        for minute in 0..<60 {
            try ledger.recordEvent(customerID: "ana", name: "paywall_shown", placement: "home", at: Self.start.addingTimeInterval(Double(minute) * 60))
        }
        let summary = try ledger.recordEvent(customerID: "ana", name: "offer_dismissed", at: Self.start)
        #expect(summary.count == 1)
        let summaries = try ledger.eventSummaries(customerID: "ana")
        let shown = try #require(summaries["paywall_shown"])
        #expect(shown.count == 60)
        #expect(shown.last == Self.start.addingTimeInterval(59 * 60))
        #expect(shown.recent.count == EventSummary.recentLimit)
        #expect(shown.recent.first == shown.last)
        #expect(shown.recent == shown.recent.sorted(by: >))
        #expect(try ledger.eventSummaries(customerID: "bo").isEmpty)
        #expect(try ledger.customer(id: "ana") != nil, "recording an event records the customer")
        #expect(try ledger.customerState(customerID: "ana").events == summaries)
    }

    @Test("a few events of several names are summarized in full, newest first", arguments: LedgerBackend.available)
    func fewEvents(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        for minute in [3, 1, 2] {
            try ledger.recordEvent(customerID: "ana", name: "paywall_shown", at: Self.start.addingTimeInterval(Double(minute) * 60))
        }
        try ledger.recordEvent(customerID: "ana", name: "offer_dismissed", at: Self.start)
        try ledger.recordEvent(customerID: "bo", name: "paywall_shown", at: Self.start)
        let summaries = try ledger.eventSummaries(customerID: "ana")
        #expect(summaries == [
            "paywall_shown": EventSummary(count: 3, last: Self.start.addingTimeInterval(180),
                                          recent: [180, 120, 60].map { Self.start.addingTimeInterval($0) }),
            "offer_dismissed": EventSummary(count: 1, last: Self.start, recent: [Self.start]),
        ])
    }

    @Test("an event without a name, or with one too long, is refused and stores nothing", arguments: LedgerBackend.available)
    func invalidEvents(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        #expect(throws: LedgerError.self) { try ledger.recordEvent(customerID: "ana", name: "") }
        #expect(throws: LedgerError.self) { try ledger.recordEvent(customerID: "ana", name: String(repeating: "x", count: 65)) }
        #expect(throws: LedgerError.self) { try ledger.recordEvent(customerID: "", name: "paywall_shown") }
        #expect(try ledger.customers().isEmpty)
    }

    @Test("a copy carries every event", arguments: LedgerBackend.available)
    func copiesCarryEvents(on backend: LedgerBackend) throws {
        let source = try LedgerBackend.sqlite.freshLedger()
        for index in 0..<5 {
            try source.recordEvent(customerID: "c\(index % 2)", name: "paywall_shown", placement: index.isMultiple(of: 2) ? "home" : nil,
                                   at: Self.start.addingTimeInterval(Double(index)))
        }
        let target = try backend.freshLedger()
        let summary = try source.copy(to: target)
        #expect(summary.events == 5)
        for customer in ["c0", "c1"] {
            #expect(try target.eventSummaries(customerID: customer) == source.eventSummaries(customerID: customer))
        }
    }

    @Test("a customer keeps at most the cap of distinct event names; a name they have is always recorded",
          arguments: LedgerBackend.available)
    func distinctNamesAreCapped(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        for index in 0..<5 {
            try ledger.recordEvent(customerID: "ana", name: "event_\(index)", maximumNames: 5)
        }
        #expect(throws: LedgerError.tooManyEventNames(customerID: "ana", limit: 5)) {
            try ledger.recordEvent(customerID: "ana", name: "event_5", maximumNames: 5)
        }
        #expect(try ledger.recordEvent(customerID: "ana", name: "event_0", maximumNames: 5).count == 2)
        #expect(try ledger.customerState(customerID: "ana").events.count == 5)
        #expect(try ledger.recordEvent(customerID: "bo", name: "event_5", maximumNames: 5).count == 1, "the cap is per customer")
    }
}
