import CSQLite
import Foundation
import Testing
@testable import SQLiteLedger
import StoreCore
import TestPrerequisites

@Suite struct SQLiteCheckpointTests {
    /// A database with a table of 64 KB rows: each write of one adds about 17 pages of log.
    private func blobDatabase() throws -> (SQLiteTemporaryDirectory, Database) {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("checkpoint.sqlite"))
        try database.write { try $0.execute("CREATE TABLE blob (data BLOB NOT NULL)") }
        return (directory, database)
    }

    private func writeBlobs(_ count: Int, to database: Database) throws {
        for _ in 0..<count {
            try database.write(waitingForDisk: false) { try $0.execute("INSERT INTO blob (data) VALUES (randomblob(65536))") }
        }
    }

    /// The checkpoint counts once `condition` holds of them, or after 30 seconds.
    private func counts(of database: Database, when condition: (DatabaseCheckpointer.Counts) -> Bool) -> DatabaseCheckpointer.Counts {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition(database.checkpointCounts), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        return database.checkpointCounts
    }

    @Test func aCommitThatFillsTheLogLeavesItsCheckpointToTheCheckpointersQueue() throws {
        let (directory, database) = try blobDatabase()
        try writeBlobs(80, to: database)
        let counts = counts(of: database) { $0.inBackground > 0 }
        #expect(counts.inBackground > 0)
        #expect(counts.inline == 0)
        let reopened = try Database(path: database.path)
        #expect(try reopened.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM blob") } == 80)
        withExtendedLifetime(directory) {}
    }

    @Test func theLogCheckpointedInTheBackgroundIsWrittenFromItsStartAgain() throws {
        let (directory, database) = try blobDatabase()
        try writeBlobs(80, to: database)
        _ = counts(of: database) { $0.inBackground > 0 && !$0.isScheduled }
        // A checkpoint that began among the writes copied the log up to where it found it, and a
        // write after it copies the rest itself; one that began after them copied all of it.
        // Either way a write then starts the log over. (Which thread ran first decides which;
        // DatabaseCheckpointProgressTests take each order in turn.)
        try writeBlobs(81, to: database)
        #expect(database.checkpointCounts.logsStartedOver > 0)
        let logPages = (try FileManager.default.attributesOfItem(atPath: database.path + "-wal")[.size] as? Int ?? 0) / 4096
        // 161 rows make about 2,700 pages of log; once checkpointed, the log starts over.
        #expect(logPages < 2_000, "the log holds \(logPages) pages")
        withExtendedLifetime(directory) {}
    }

    @Test func steadyWritesPastTheThresholdCopyTheLogOnceAndStartItOverNotAtEveryCommit() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("steady.sqlite"))
        try database.write { try $0.execute("CREATE TABLE note (text BLOB NOT NULL)") }
        // Each write adds a page or two of log: about 6,000 pages in all, in many small commits.
        for _ in 0..<4_000 {
            try database.write(waitingForDisk: false) { try $0.execute("INSERT INTO note (text) VALUES (randomblob(3000))") }
        }
        let counts = counts(of: database) { !$0.isScheduled }
        // Once a checkpoint on the queue copied most of the log, one commit copies the rest and
        // the log starts over (or, should the writes outrun the queue, the commit that brings the
        // log to 4,000 pages copies it); a checkpoint at every commit past 1,000 pages would run
        // hundreds.
        #expect(counts.inBackground > 0)
        #expect(counts.inBackground + counts.finishing + counts.inline <= 24, "\(counts)")
        #expect(counts.logsStartedOver > 0)
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM note") } == 4_000)
        withExtendedLifetime(directory) {}
    }

    @Test func aLogAReaderKeepsFromCheckpointingIsCheckpointedByTheWriterOnceItIsLarge() throws {
        let (directory, database) = try blobDatabase()
        try writeBlobs(1, to: database)
        let reader = try Database(path: database.path)
        let reading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            _ = try? reader.read { connection in
                _ = try connection.fetchValue(Int.self, "SELECT count(*) FROM blob")
                reading.signal()
                release.wait()
            }
            finished.signal()
        }.start()
        reading.wait()
        try writeBlobs(300, to: database)
        release.signal()
        finished.wait()
        #expect(database.checkpointCounts.inline > 0)
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM blob") } == 301)
        withExtendedLifetime(directory) {}
    }

    @Test func sqliteKeepsNoMemoryStatisticsWhoseMutexEveryAllocationWouldTake() throws {
        let (directory, database) = try blobDatabase()
        try writeBlobs(2, to: database)
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM blob") } == 2)
        #expect(sqlite3_memory_used() == 0)
        withExtendedLifetime(directory) {}
    }
}
