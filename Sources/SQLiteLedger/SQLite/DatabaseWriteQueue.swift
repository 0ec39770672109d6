import Foundation

/// One write waiting for its turn on a ``Database``'s connection.
final class DatabaseWriteJob: @unchecked Sendable {
    /// Runs the write's body on the connection, keeping its result; returns whether the body
    /// succeeded. It may run again when a write grouped with it ends their transaction.
    let run: (DatabaseConnection) -> Bool
    /// Whether the write's commit waits for the disk (`synchronous=FULL`); a group of writes
    /// none of which waits commits at `synchronous=NORMAL`.
    let waitsForDisk: Bool
    /// Why the write's changes were not committed although its body succeeded (the group's
    /// commit failed), if so.
    var failure: (any Error)?
    /// Whether the write ran and its group ended: set by the queue.
    fileprivate var isDone = false

    init(waitsForDisk: Bool = true, run: @escaping (DatabaseConnection) -> Bool) {
        self.waitsForDisk = waitsForDisk
        self.run = run
    }
}

/// The writes waiting for a database's connection, run in groups that commit once.
///
/// A thread that finds no write running leads: it takes the waiting writes (its own first)
/// and runs them as one group, then wakes their threads. Writes that arrived meanwhile form
/// the next group, which the same thread runs at once, up to ``groupsPerLeader`` groups, so
/// the connection does not stand idle while a woken thread is scheduled to lead; after that one
/// of their threads leads. Under load each commit, and so each `fsync`, serves every write that
/// queued during the one before; alone, a write commits by itself at once.
final class DatabaseWriteQueue: @unchecked Sendable {
    /// The most writes one group runs, which bounds how long a group holds the connection.
    static let maximumGroupSize = 64
    /// The most groups one thread runs in a row before it returns to its own work.
    static let groupsPerLeader = 4

    private let condition = NSCondition()
    private var waiting: [DatabaseWriteJob] = []
    private var isLeading = false

    /// Queues `job` and returns once it has run in a group that `runGroup` ended.
    func perform(_ job: DatabaseWriteJob, runGroup: ([DatabaseWriteJob]) -> Void) {
        condition.lock()
        waiting.append(job)
        while !job.isDone {
            if isLeading {
                condition.wait()
                continue
            }
            isLeading = true
            var groups = 0
            repeat {
                let group = Array(waiting.prefix(Self.maximumGroupSize))
                waiting.removeFirst(group.count)
                condition.unlock()
                runGroup(group)
                condition.lock()
                for member in group { member.isDone = true }
                groups += 1
                if waiting.isEmpty || groups == Self.groupsPerLeader { isLeading = false }
                // Wakes the group's threads, and, once this thread stops leading, the next leader.
                condition.broadcast()
            } while isLeading
        }
        condition.unlock()
    }
}
