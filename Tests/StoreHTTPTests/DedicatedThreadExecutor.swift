import Foundation
import Synchronization

/// A task executor on a thread of its own: the delivery tests run their rounds on it, so that
/// tests blocking the cooperative pool's few threads (one per core) do not starve them.
final class DedicatedThreadExecutor: TaskExecutor, Sendable {
    /// The one the delivery tests share.
    static let shared = DedicatedThreadExecutor()

    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                available.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = "delivery tests"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        available.signal()
    }
}
