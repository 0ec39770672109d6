import Foundation
import PostgresLedger
import StoreCore
import Synchronization
import Testing
import TestPrerequisites

/// A follower hears of a release by the notification its publication sends, not at its next look.
@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PolicyReleaseFollowerTests {
    /// The releases a follower handed over, with when each arrived.
    private final class Arrivals: Sendable {
        private let arrived = Mutex<[(release: PolicyRelease, at: ContinuousClock.Instant)]>([])
        private let signal = DispatchSemaphore(value: 0)

        func record(_ release: PolicyRelease) {
            arrived.withLock { $0.append((release, ContinuousClock.now)) }
            signal.signal()
        }

        /// The next release handed over, waiting up to `seconds` for it.
        func next(within seconds: Int) -> (release: PolicyRelease, at: ContinuousClock.Instant)? {
            guard signal.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
            return arrived.withLock { $0.removeFirst() }
        }
    }

    @Test("a release published just after the follower looked reaches it well before its next look")
    func aReleaseArrivesByItsNotification() throws {
        let database = try PostgresTestDatabase()
        let store = try PolicyReleaseStore(url: database.url)
        let arrivals = Arrivals()
        let follower = PolicyReleaseFollower(store: store, after: 0, onRelease: { arrivals.record($0) }, onFailure: { _ in })
        defer { follower.stop() }

        try store.publish(version: "first", script: "return {}", catalogName: nil, catalog: nil)
        let first = try #require(arrivals.next(within: 30), "the first release reached the follower")
        // The follower looked at the releases just now, so only the notification can bring the
        // second one before its next look, a poll interval from now.
        try store.publish(version: "second", script: "return { }", catalogName: nil, catalog: nil)
        let second = try #require(arrivals.next(within: 30), "the second release reached the follower")
        #expect(first.release.version == "first")
        #expect(second.release.version == "second")
        let waited = second.at - first.at
        #expect(waited < PolicyReleaseFollower.pollInterval * 0.6,
                "the second release arrived \(waited) after the first; the follower looks every \(PolicyReleaseFollower.pollInterval)")
    }
}
