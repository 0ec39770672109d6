import Foundation
import StoreCore
import Synchronization

/// Threads of their own for the ledger benchmarks: unlike `DispatchQueue.concurrentPerform`,
/// which runs no more threads at once than there are cores, every thread here runs at once,
/// as writers blocked on I/O do in a service.
enum BenchThreads {
    /// Starts `count` threads; each prepares its work with `prepare(index)` (opening a
    /// connection, say), and once all are prepared they run `work` together. Returns the
    /// seconds from the start until the last one finished.
    ///
    /// - Throws: the first error a thread threw, after every thread finished.
    static func run<Work>(
        count: Int,
        prepare: @escaping @Sendable (Int) throws -> Work,
        work: @escaping @Sendable (Work) throws -> Void
    ) throws -> Double {
        let prepared = DispatchGroup()
        let finished = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        for index in 0..<count {
            prepared.enter()
            finished.enter()
            Thread {
                defer { finished.leave() }
                let job: Work
                do {
                    job = try prepare(index)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    prepared.leave()
                    return
                }
                prepared.leave()
                start.wait()
                do {
                    try work(job)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }.start()
        }
        prepared.wait()
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<count { start.signal() }
        finished.wait()
        let elapsed = clock.now - started
        if let error = failure.withLock({ $0 }) { throw error }
        return elapsed.seconds
    }
}
