import StoreCore
import Foundation
import Synchronization

/// Follows a fleet's policy releases: a thread of its own holds a connection that `LISTEN`s
/// on ``PolicyReleaseStore/channel`` and hands every new newest release to a closure, within
/// moments of its publication. It also looks every few seconds, so a notification missed while
/// the connection was down is caught up, and it reconnects after a failure.
public final class PolicyReleaseFollower: Sendable {
    /// How long the thread waits for a notification before it looks anyway.
    public static let pollInterval: Duration = .seconds(5)

    /// Whether ``stop()`` was asked, shared with the thread.
    private final class StopFlag: Sendable {
        let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
    }

    private let stopped = StopFlag()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts following the releases of `store`, calling `onRelease` (on the follower's
    /// thread) with each newest release whose number is above `after`, and `onFailure` with
    /// each connection failure (it retries after a second).
    public init(store: PolicyReleaseStore, after: Int64, onRelease: @escaping @Sendable (PolicyRelease) -> Void,
                onFailure: @escaping @Sendable (String) -> Void) {
        let stopped = stopped
        let finished = finished
        let url = store.url
        Thread {
            defer { finished.signal() }
            var seen = after
            while !stopped.isSet {
                do {
                    let connection = try PostgresConnection(url: url)
                    try connection.listen(on: PolicyReleaseStore.channel)
                    var lastLook = ContinuousClock.now - Self.pollInterval
                    while !stopped.isSet {
                        let heard = try connection.notifications(waitingUpTo: .milliseconds(250))
                        guard !heard.isEmpty || ContinuousClock.now - lastLook >= Self.pollInterval else { continue }
                        lastLook = ContinuousClock.now
                        if let latest = try store.latest(), latest.number > seen {
                            seen = latest.number
                            onRelease(latest)
                        }
                    }
                } catch {
                    onFailure("\(error)")
                    Thread.sleep(forTimeInterval: 1)
                }
            }
        }.start()
    }

    /// Stops following and waits for the thread to end.
    public func stop() {
        guard !stopped.value.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
    }

    deinit {
        stop()
    }
}
