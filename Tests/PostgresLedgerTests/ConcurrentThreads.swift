import Foundation
import Synchronization

/// Why a concurrent test gave up instead of hanging.
struct ConcurrencyTimeout: Error, CustomStringConvertible {
    /// What did not happen in time.
    let description: String
}

/// Runs `body` on `count` new threads at once, passing each its index, and waits for all of
/// them; throws the first error any of them threw.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let errors = Mutex<[any Error]>([])
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            defer { group.leave() }
            do {
                try body(index)
            } catch {
                errors.withLock { $0.append(error) }
            }
        }.start()
    }
    guard group.wait(timeout: .now() + 120) == .success else {
        throw ConcurrencyTimeout(description: "\(count) threads did not finish within 120 s")
    }
    if let first = errors.withLock({ $0.first }) {
        throw first
    }
}

/// A meeting point for a fixed number of threads: each waits in ``arriveAndWait()`` until all
/// have arrived. Used once.
final class ThreadBarrier: @unchecked Sendable {
    /// How many threads meet.
    private let parties: Int
    /// Guards `arrived`, and wakes the waiting threads when another arrives.
    private let condition = NSCondition()
    /// How many threads have arrived so far.
    private var arrived = 0

    /// A barrier for `parties` threads.
    init(parties: Int) {
        self.parties = parties
    }

    /// Waits until `parties` threads have called this, or throws after 30 s.
    func arriveAndWait() throws {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: 30)
        while arrived < parties {
            guard condition.wait(until: deadline) else {
                throw ConcurrencyTimeout(description: "only \(arrived) of \(parties) threads reached the barrier")
            }
        }
    }
}
