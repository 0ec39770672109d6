import Foundation
import StoreCore

extension Backoff {
    /// How a PostgreSQL transaction that met a transient ``PostgresError`` runs again by
    /// default: five runs in all, pausing from up to 10 ms before the first retry, doubling, to
    /// at most a second, each pause drawn between half and all of its step.
    public static let postgresTransaction = Backoff(maximumAttempts: 5, initialDelay: .milliseconds(10), maximumDelay: .seconds(1))

    /// Runs `body`, and runs it again after a pause each time it throws a transient
    /// ``PostgresError``, up to ``maximumAttempts`` runs in all. A timeout is not run again: a
    /// server that did not answer within its deadline would keep the caller waiting as long again.
    ///
    /// `body` must be the whole unit of work — a whole transaction, not one statement of it — so
    /// running it again starts from scratch.
    ///
    /// - Throws: the first error that is not a transient ``PostgresError``, a timeout, or the
    ///   last error when every attempt failed.
    public func runRetryingTransientErrors<T>(_ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch let error as PostgresError where error.isTransient && error.kind != .timeout && allowsRetry(after: attempt) {
                Thread.sleep(forTimeInterval: delay(beforeRetry: attempt).seconds)
                attempt += 1
            }
        }
    }
}
