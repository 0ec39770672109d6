import Foundation
import Synchronization

/// What happened to the policy this service serves since it started, newest first: the policy
/// it started with, each reload or release swapped in, and each one that failed to load (the
/// previous version kept serving). Keeps the latest ``eventsKept`` events. Safe to call from any
/// number of threads.
public final class PolicyHistory: Sendable {
    /// How many events are kept.
    public static let eventsKept = 50

    /// One load of a policy, or one failure to load it.
    public struct Event: Sendable, Equatable {
        /// When it happened.
        public var time: Date
        /// Whether the policy was swapped in (or served at the start); false when it failed to load.
        public var loaded: Bool
        /// The version serving after it.
        public var version: String
        /// Where the policy came from: `start`, `POST /v1/admin/reload`, `--watch`, `release 4 (rollback)`.
        public var origin: String
        /// What failed, for a failure.
        public var problem: String?

        /// Describes an event.
        public init(time: Date, loaded: Bool, version: String, origin: String, problem: String? = nil) {
            self.time = time
            self.loaded = loaded
            self.version = version
            self.origin = origin
            self.problem = problem
        }
    }

    private let kept = Mutex<[Event]>([])

    /// An empty history.
    public init() {}

    /// Adds `event`, forgetting the oldest beyond ``eventsKept``.
    public func record(_ event: Event) {
        kept.withLock { events in
            events.append(event)
            if events.count > Self.eventsKept { events.removeFirst(events.count - Self.eventsKept) }
        }
    }

    /// The events kept, newest first.
    public var events: [Event] {
        kept.withLock { $0.reversed() }
    }

    /// The newest load, which says where the policy serving came from.
    public var latestLoad: Event? {
        kept.withLock { $0.last(where: \.loaded) }
    }
}
