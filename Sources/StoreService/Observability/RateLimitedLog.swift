import Foundation
import Synchronization

/// Log lines that may repeat on every request, written at most once per interval for each
/// kind: the first line of a kind is written at once; those of the same kind within the next
/// interval are counted, and the next line written of that kind says how many were left out.
/// So a misconfiguration that refuses every request shows within a second, and never floods
/// the log. Safe to use from any thread.
public final class RateLimitedLog: Sendable {
    private struct Kind {
        var lastWritten: ContinuousClock.Instant
        var leftOut: Int
    }

    private let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let write: @Sendable (String) -> Void
    private let kinds = Mutex([String: Kind]())

    /// Lines written to `write`, at most one of each kind per `interval` of the clock `now` reads.
    public init(interval: Duration = .seconds(60), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
                write: @escaping @Sendable (String) -> Void) {
        self.interval = interval
        self.now = now
        self.write = write
    }

    /// Writes `line` unless a line of `kind` was written less than the interval ago; then only
    /// counts it.
    public func log(_ line: @autoclosure () -> String, kind: String) {
        let now = now()
        let leftOut: Int? = kinds.withLock { kinds in
            if let previous = kinds[kind], previous.lastWritten.duration(to: now) < interval {
                kinds[kind]?.leftOut += 1
                return nil
            }
            let leftOut = kinds[kind]?.leftOut ?? 0
            kinds[kind] = Kind(lastWritten: now, leftOut: 0)
            return leftOut
        }
        guard let leftOut else { return }
        let text = line().asLogLine
        write(leftOut == 0 ? text : "\(text) (\(leftOut) more like it since the last such line)")
    }
}
