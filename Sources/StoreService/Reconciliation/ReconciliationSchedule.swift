import Foundation
import Synchronization

/// Reconciles a service's ledger every so often, in the background, one process of a fleet at a
/// time (``ReconciliationLock``): what `storerules serve --reconcile-every` runs.
public final class ReconciliationSchedule: Sendable {
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Starts reconciling with `reconciler` every `interval`, the first time after one interval,
    /// telling `log` each run's outcome in one line.
    public init(reconciler: Reconciler, every interval: Duration, lock: any ReconciliationLock,
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
                        log("reconcile skipped: another instance is reconciling")
                        continue
                    }
                    log("reconciled: \(summary.notificationsRead) notifications read, \(summary.customers) customers, "
                        + "\(summary.changes) changes" + (summary.failures.isEmpty ? "" : "; failed: " + summary.failures.joined(separator: "; ")))
                } catch {
                    log("reconcile failed: \(error)")
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
