import Foundation
import Synchronization

/// The service's decisions of the last day, as the operator page shows them: counted by hook
/// and source (`policy`, `default`, `fallback`) in one bucket a minute, and the latest
/// failures with their reason, which names the policy's line. Memory stays bounded: a day of
/// minutes, each with a count per hook and source, and ``failuresKept`` failures.
/// Safe to call from any number of threads.
public final class RecentDecisions: Sendable {
    /// How many minutes are counted: a day.
    public static let minutesKept = 24 * 60
    /// How many of the latest failures are kept.
    public static let failuresKept = 20

    /// A hook's decisions from one source.
    public struct Key: Sendable, Hashable, Comparable {
        /// The hook.
        public var hook: String
        /// `policy`, `default` or `fallback`.
        public var source: String

        /// `hook`'s decisions from `source`.
        public init(hook: String, source: String) {
            self.hook = hook
            self.source = source
        }

        /// Ordered by hook, then source.
        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.hook, lhs.source) < (rhs.hook, rhs.source)
        }
    }

    /// A decision whose hook failed, so that its default answered.
    public struct Failure: Sendable, Equatable {
        /// When it was decided.
        public var time: Date
        /// The hook.
        public var hook: String
        /// Why the default answered: the hook, the script and line, and the error.
        public var reason: String
        /// The policy version that failed; nil when no hook ran (the ledger could not be read).
        public var policyVersion: String?
        /// The request it answered.
        public var requestID: String?
    }

    /// The counts of the last hour and the last day, and the latest failures, newest first.
    public struct Summary: Sendable {
        /// Decisions of the last 60 minutes, by hook and source.
        public var lastHour: [Key: Int]
        /// Decisions of the last 24 hours, by hook and source.
        public var lastDay: [Key: Int]
        /// The latest failures, newest first.
        public var failures: [Failure]
    }

    private struct Minute {
        var number: Int64
        var counts: [Key: Int]
    }

    private struct State {
        var minutes: [Minute?] = Array(repeating: nil, count: RecentDecisions.minutesKept)
        var failures: [Failure] = []
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Date

    /// Counts decisions at the times `clock` tells (the host's time by default).
    public init(clock: @escaping @Sendable () -> Date = Date.init) {
        self.clock = clock
    }

    /// Counts one decision of `hook` from `source`; a `fallback` with a `reason` is kept among
    /// the latest failures.
    public func record(hook: String, source: String, reason: String? = nil, policyVersion: String? = nil, requestID: String? = nil) {
        let now = clock()
        let minute = Self.minuteNumber(of: now)
        let slot = Int(minute % Int64(Self.minutesKept))
        let key = Key(hook: hook, source: source)
        state.withLock { state in
            if state.minutes[slot]?.number != minute { state.minutes[slot] = Minute(number: minute, counts: [:]) }
            state.minutes[slot]?.counts[key, default: 0] += 1
            guard source == "fallback", let reason else { return }
            state.failures.append(Failure(time: now, hook: hook, reason: reason, policyVersion: policyVersion, requestID: requestID))
            if state.failures.count > Self.failuresKept { state.failures.removeFirst(state.failures.count - Self.failuresKept) }
        }
    }

    /// What was decided in the last hour and day, as of now.
    public func summary() -> Summary {
        let current = Self.minuteNumber(of: clock())
        return state.withLock { state in
            var summary = Summary(lastHour: [:], lastDay: [:], failures: state.failures.reversed())
            for minute in state.minutes.compactMap({ $0 }) where minute.number > current - Int64(Self.minutesKept) && minute.number <= current {
                let inLastHour = minute.number > current - 60
                for (key, count) in minute.counts {
                    summary.lastDay[key, default: 0] += count
                    if inLastHour { summary.lastHour[key, default: 0] += count }
                }
            }
            return summary
        }
    }

    private static func minuteNumber(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 60).rounded(.down))
    }
}
