import Foundation
import StoreCore
import SQLiteLedger
import Synchronization

/// Customer-state reads per second on a SQLite ledger while one thread ingests, against the
/// same reads alone.
public enum ReadsBesideWritesBench {
    /// Threads reading customer states at once.
    public static let readerThreads = 2

    /// Transactions in the ledger before the reads begin: four for each customer.
    static let ledgerTransactionCount = 4 * BenchTransactionSupply.customerCount

    /// How long the readers read per round when nothing else runs.
    static let quietReadSeconds = 0.25

    /// The supply's size these reads need at `scale`.
    static func supplyCount(_ scale: BenchScale) -> Int { ledgerTransactionCount + scale.ledgerRounds * scale.ingestsBesideReads }

    /// Measures, in `scale`'s rounds on one SQLite ledger in `workspace`, customer-state
    /// reads per second on ``readerThreads`` threads with nothing else running, and the same
    /// reads while one more thread ingests new transactions for the same customers, and records
    /// the best of each in `figures`. The ingesting thread takes `scale`'s
    /// ``BenchScale/ingestsBesideReads`` transactions a round.
    static func measure(_ supply: BenchTransactionSupply, scale: BenchScale, workspace: URL,
                        into figures: inout LedgerBenchFigures) throws {
        let ledger = try Ledger(path: workspace.appendingPathComponent("reads.sqlite").path)
        for item in supply.slice(from: 0, count: ledgerTransactionCount) {
            try BenchTransactionSupply.ingest(item, into: ledger)
        }
        if let storage = ledger.storage as? SQLiteLedgerStorage {
            let customers = (0..<BenchTransactionSupply.customerCount).map(BenchTransactionSupply.customerID)
            (figures.snapshotReadMicroseconds, figures.readByReadMicroseconds) = try SnapshotReadTiming.measure(
                customers: customers, storage: storage, oneStatement: { try storage.customerSnapshotInOneStatement(customerID: $0) })
        }
        var alone = 0.0
        var beside = 0.0
        var ingests = 0.0
        for round in 0..<scale.ledgerRounds {
            alone = max(alone, try readsPerSecondAlone(ledger))
            let fresh = supply.slice(from: ledgerTransactionCount + round * scale.ingestsBesideReads, count: scale.ingestsBesideReads)
            let window = ReadWindow(seconds: nil)
            let elapsed = try BenchThreads.run(count: readerThreads + 1, prepare: { $0 }) { thread in
                if thread < readerThreads {
                    try read(ledger, thread: thread, in: window)
                } else {
                    defer { window.stop() }
                    for item in fresh { try BenchTransactionSupply.ingest(item, into: ledger) }
                }
            }
            beside = max(beside, Double(window.reads) / elapsed)
            ingests = max(ingests, Double(fresh.count) / elapsed)
        }
        figures.readsPerSecondAlone = alone
        figures.readsPerSecondBesideWrites = beside
        figures.ingestsPerSecondBesideReads = ingests
        figures.readsBesideWritesRatio = beside / alone
    }

    /// Customer-state reads per second on ``readerThreads`` threads for ``quietReadSeconds``.
    private static func readsPerSecondAlone(_ ledger: Ledger) throws -> Double {
        let window = ReadWindow(seconds: quietReadSeconds)
        let elapsed = try BenchThreads.run(count: readerThreads, prepare: { $0 }) { try read(ledger, thread: $0, in: window) }
        return Double(window.reads) / elapsed
    }

    /// Reads customer states, each customer in turn from one of its own for each thread, until
    /// `window` closes.
    private static func read(_ ledger: Ledger, thread: Int, in window: ReadWindow) throws {
        var customer = thread * BenchTransactionSupply.customerCount / readerThreads
        var reads = 0
        defer { window.add(reads) }
        let began = ContinuousClock.now
        while window.isOpen(since: began) {
            keep(try ledger.customerState(customerID: BenchTransactionSupply.customerID(customer)))
            customer += 1
            reads += 1
        }
    }
}

/// When readers stop, and how many reads they made.
private final class ReadWindow: Sendable {
    private let duration: Duration?
    private let stopped = Atomic<Bool>(false)
    private let count = Atomic<Int>(0)

    /// A window that closes for each reader `seconds` after it began, or, without them, at
    /// ``stop()``.
    init(seconds: Double?) {
        duration = seconds.map { .nanoseconds(Int64($0 * 1e9)) }
    }

    /// Whether a reader that began at `began` goes on.
    func isOpen(since began: ContinuousClock.Instant) -> Bool {
        guard let duration else { return !stopped.load(ordering: .acquiring) }
        return ContinuousClock.now - began < duration
    }

    /// Closes a window made without a duration.
    func stop() { stopped.store(true, ordering: .releasing) }

    /// Adds a thread's reads.
    func add(_ reads: Int) { count.add(reads, ordering: .relaxed) }

    /// The reads added so far.
    var reads: Int { count.load(ordering: .relaxed) }
}
