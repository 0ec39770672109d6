import Foundation
import StoreService
import Synchronization
import Testing

/// The operator page's counts of decisions: a minute's decisions count in the last hour for 60
/// minutes and in the last day for 24 hours, then not at all; the latest failures, newest first,
/// are kept up to their bound; and the policy's history keeps its latest events.
@Suite struct RecentDecisionsTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_764_806_400))
        func advance(minutes: Double) { now.withLock { $0 = $0.addingTimeInterval(minutes * 60) } }
        var time: Date { now.withLock { $0 } }
    }

    @Test func countsMoveFromTheHourToTheDayAndOut() {
        let clock = Clock()
        let recent = RecentDecisions(clock: { clock.time })
        let key = RecentDecisions.Key(hook: "grant", source: "policy")
        recent.record(hook: "grant", source: "policy")
        recent.record(hook: "grant", source: "policy")
        #expect(recent.summary().lastHour[key] == 2)
        clock.advance(minutes: 59)
        recent.record(hook: "grant", source: "policy")
        #expect(recent.summary().lastHour[key] == 3)
        clock.advance(minutes: 1)
        #expect(recent.summary().lastHour[key] == 1, "the first minute's two left the hour")
        #expect(recent.summary().lastDay[key] == 3)
        clock.advance(minutes: 24 * 60 - 60)
        #expect(recent.summary().lastDay[key] == 1, "the first minute's two left the day")
        clock.advance(minutes: 59)
        recent.record(hook: "grant", source: "fallback", reason: "grant (policy.lua:9): error: boom")
        #expect(recent.summary().lastDay[key] == nil, "a minute's slot used again a day later starts from nothing")
        #expect(recent.summary().lastDay[RecentDecisions.Key(hook: "grant", source: "fallback")] == 1)
    }

    @Test func theLatestFailuresAreKeptNewestFirst() {
        let recent = RecentDecisions()
        for number in 1...(RecentDecisions.failuresKept + 5) {
            recent.record(hook: "grant", source: "fallback", reason: "failure \(number)", policyVersion: "v", requestID: "r\(number)")
        }
        recent.record(hook: "grant", source: "policy")
        let failures = recent.summary().failures
        #expect(failures.count == RecentDecisions.failuresKept)
        #expect(failures.first?.reason == "failure \(RecentDecisions.failuresKept + 5)")
        #expect(failures.last?.reason == "failure 6")
    }

    @Test func thePolicyHistoryKeepsItsLatestEvents() {
        let history = PolicyHistory()
        for number in 1...(PolicyHistory.eventsKept + 3) {
            history.record(PolicyHistory.Event(time: Date(), loaded: number % 2 == 0, version: "v\(number)", origin: "--watch"))
        }
        #expect(history.events.count == PolicyHistory.eventsKept)
        #expect(history.events.first?.version == "v\(PolicyHistory.eventsKept + 3)")
        #expect(history.latestLoad?.version == "v\(PolicyHistory.eventsKept + 2)")
    }
}
