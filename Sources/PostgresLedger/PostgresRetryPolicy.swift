import Foundation
import StoreCore

/// How work that failed with a transient ``PostgresError`` is run again: a bounded number of
/// attempts, with exponential backoff and jitter between them.
///
/// The pause before retry *n* is drawn at random between half and all of
/// `initialDelay × 2ⁿ⁻¹` (capped at `maxDelay`), so processes that failed together do not
/// retry together.
public struct PostgresRetryPolicy: Hashable, Sendable {
    /// How many times the work runs at most, the first run included.
    public var maxAttempts: Int
    /// The longest pause before the first retry.
    public var initialDelay: Duration
    /// The longest pause before any retry.
    public var maxDelay: Duration

    /// A policy of `maxAttempts` runs, pausing up to `initialDelay` before the first retry and
    /// doubling up to `maxDelay`.
    ///
    /// - Precondition: `maxAttempts` is at least 1, and the delays are not negative.
    public init(maxAttempts: Int = 5, initialDelay: Duration = .milliseconds(10), maxDelay: Duration = .seconds(1)) {
        precondition(maxAttempts >= 1, "a retry policy runs the work at least once")
        precondition(initialDelay >= .zero && maxDelay >= .zero, "retry delays cannot be negative")
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// The longest pause before retry number `retry` (1 for the pause after the first failure):
    /// `initialDelay × 2^(retry − 1)`, capped at `maxDelay`.
    public func delayCeiling(beforeRetry retry: Int) -> Duration {
        let doubling = min(max(retry - 1, 0), 40)
        return min(initialDelay * (Int64(1) << doubling), maxDelay)
    }

    /// The pause before retry number `retry`: drawn uniformly between half of
    /// ``delayCeiling(beforeRetry:)`` and all of it.
    public func delay(beforeRetry retry: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = delayCeiling(beforeRetry: retry).seconds
        guard ceiling > 0 else { return .zero }
        return .seconds(Double.random(in: (ceiling / 2)...ceiling, using: &generator))
    }

    /// Runs `body`, and runs it again after a pause each time it throws a transient
    /// ``PostgresError``, up to ``maxAttempts`` runs in all. A timeout is not run again: a server
    /// that did not answer within its deadline would keep the caller waiting as long again.
    ///
    /// `body` must be the whole unit of work — a whole transaction, not one statement of it — so
    /// running it again starts from scratch.
    ///
    /// - Throws: the first error that is not a transient ``PostgresError``, a timeout, or the
    ///   last error when every attempt failed.
    public func run<T>(_ body: () throws -> T) throws -> T {
        var generator = SystemRandomNumberGenerator()
        var attempt = 1
        while true {
            do {
                return try body()
            } catch let error as PostgresError where error.isTransient && error.kind != .timeout && attempt < maxAttempts {
                Thread.sleep(forTimeInterval: delay(beforeRetry: attempt, using: &generator).seconds)
                attempt += 1
            }
        }
    }
}
