import Foundation
import Synchronization

/// Reconciles a service's ledger every so often, in the background, one process of a fleet at a
/// time (``ReconciliationLock``): what `storerules serve --reconcile-every` runs.
public final class ReconciliationSchedule: Sendable {
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Starts reconciling with `reconciler` every `interval`, the first time after one interval,
    /// telling `log` each run's outcome in one line (a failure with what to check) and counting
    /// it in `metrics`.
    public init(reconciler: Reconciler, every interval: Duration, lock: any ReconciliationLock, metrics: ServiceMetrics,
                log: @escaping @Sendable (String) -> Void) {
        let task = Task {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                do {
                    let summary = try await lock.withLockIfFree { try await reconciler.reconcile() }
                    guard let summary else {
                        metrics.recordReconciliation(.skipped)
                        log("reconcile skipped: another instance is reconciling")
                        continue
                    }
                    metrics.recordReconciliation(summary.failures.isEmpty ? .success : .partial, summary: summary)
                    log("reconciled: \(summary.notificationsRead) notifications read, \(summary.customers) customers, "
                        + "\(summary.changes) changes" + (summary.failures.isEmpty ? "" : "; failed: " + summary.failures.joined(separator: "; ")))
                } catch {
                    metrics.recordReconciliation(.failure)
                    log("reconcile failed: " + ReconciliationAdvice.explanation(of: error, client: reconciler.client))
                }
            }
        }
        self.task.withLock { $0 = task }
    }

    /// Stops the schedule; a reconcile under way is cancelled at its next wait.
    public func stop() {
        task.withLock { $0?.cancel() }
    }
}
