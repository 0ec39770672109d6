import Foundation
import Testing
import Synchronization
@testable import SQLiteLedger
import StoreCore
import TestPrerequisites

@Suite struct SQLiteDatabaseTests {
    @Test func opensWithWriteAheadLoggingFullSyncAndForeignKeys() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("settings.sqlite"))
        let settings = try database.read { connection in
            (
                try connection.fetchValue(String.self, "PRAGMA journal_mode"),
                try connection.fetchValue(Int.self, "PRAGMA synchronous"),
                try connection.fetchValue(Int.self, "PRAGMA foreign_keys")
            )
        }
        #expect(settings.0 == "wal")
        #expect(settings.1 == 2)
        #expect(settings.2 == 1)
    }

    @Test("a write that need not wait for the disk commits at synchronous=NORMAL, and the next write waits again at FULL")
    func writeWithoutWaitingForDisk() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("durability.sqlite"))
        let relaxed = try database.write(waitingForDisk: false) { connection in
            try connection.execute("CREATE TABLE exposure (customer TEXT)")
            try connection.execute("INSERT INTO exposure VALUES ('ana')")
            return try connection.fetchValue(Int.self, "PRAGMA synchronous")
        }
        let durable = try database.write { try $0.fetchValue(Int.self, "PRAGMA synchronous") }
        #expect(relaxed == 1 && durable == 2)
        #expect(try Database(path: directory.path("durability.sqlite")).read { try $0.fetchValue(Int.self, "SELECT count(*) FROM exposure") } == 1,
                "the write is committed for every connection")
    }

    @Test func bindsAndReadsEveryStorageClass() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("values.sqlite"))
        let text = "Café 🐦 with\0nul"
        let row = try database.write { connection -> Row? in
            try connection.execute("CREATE TABLE sample (i INTEGER, r REAL, t TEXT, b BLOB, n TEXT, flag INTEGER, e TEXT, eb BLOB)")
            let missing: String? = nil
            try connection.execute(
                "INSERT INTO sample VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [Int64.max, 2.5, text, [UInt8]([0, 1, 255]), missing, true, "", [UInt8]()])
            return try connection.fetchOne("SELECT i, r, t, b, n, flag, e, eb FROM sample")
        }
        let stored = try #require(row)
        #expect(try stored.decode(Int64.self, column: "i") == Int64.max)
        #expect(try stored.decode(Double.self, column: "r") == 2.5)
        #expect(try stored.decode(String.self, column: "t") == text)
        #expect(try stored.decode([UInt8].self, column: "b") == [0, 1, 255])
        #expect(try stored.decode(String?.self, column: "n") == nil)
        #expect(try stored.decode(Bool.self, column: "flag"))
        #expect(try stored.decode(String.self, column: "e") == "")
        #expect(try stored.decode([UInt8].self, column: "eb") == [])
        #expect(try stored.decode(Int64?.self, at: 0) == Int64.max)
    }

    @Test func readingAValueAsTheWrongTypeIsAMismatchError() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("mismatch.sqlite"))
        let row = try #require(try database.read { try $0.fetchOne("SELECT 'seven' AS word, NULL AS absent_value") })
        let wrongType = #expect(throws: SQLiteError.self) { try row.decode(Int.self, column: "word") }
        #expect(wrongType?.resultCode == .mismatch)
        #expect(wrongType?.sql == "SELECT 'seven' AS word, NULL AS absent_value")
        let nullAsValue = #expect(throws: SQLiteError.self) { try row.decode(String.self, column: "absent_value") }
        #expect(nullAsValue?.resultCode == .mismatch)
        let unknownColumn = #expect(throws: SQLiteError.self) { try row.decode(String.self, column: "absent") }
        #expect(unknownColumn?.resultCode == .range)
    }

    @Test func aWrongNumberOfArgumentsIsARangeError() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("arguments.sqlite"))
        let error = #expect(throws: SQLiteError.self) {
            try database.read { try $0.fetchOne("SELECT ?, ?", [1]) }
        }
        #expect(error?.resultCode == .range)
        #expect(error?.message.contains("2 argument(s), 1 given") == true)
    }

    @Test func statementsAreCachedBySQLText() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("cache.sqlite"))
        try database.read { connection in
            let first = try connection.statement("SELECT ?")
            let second = try connection.statement("SELECT ?")
            let other = try connection.statement("SELECT ? + 1")
            #expect(first === second)
            #expect(first !== other)
            #expect(try first.fetchOne([41])?.decode(Int.self, at: 0) == 41)
            #expect(try second.fetchOne([42])?.decode(Int.self, at: 0) == 42)
        }
    }

    @Test func aSyntaxErrorCarriesCodesMessageAndSQL() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("syntax.sqlite"))
        let error = #expect(throws: SQLiteError.self) {
            try database.read { try $0.execute("SELEC 1") }
        }
        #expect(error?.resultCode == .error)
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.description.contains("SELEC 1") == true)
    }

    @Test func aStatementHoldsExactlyOneCommand() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("one.sqlite"))
        let error = #expect(throws: SQLiteError.self) {
            try database.write { try $0.execute("CREATE TABLE a (x INTEGER); DROP TABLE a") }
        }
        #expect(error?.message.contains("exactly one SQL command") == true)
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT 1;  \n") } == 1)
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") } == 0)
    }

    @Test func aConstraintViolationCarriesTheExtendedCode() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("constraint.sqlite"))
        try database.write { try $0.execute(script: "CREATE TABLE item (id TEXT PRIMARY KEY); INSERT INTO item VALUES ('a');") }
        let error = #expect(throws: SQLiteError.self) {
            try database.write { try $0.execute("INSERT INTO item VALUES (?)", ["a"]) }
        }
        #expect(error?.resultCode == .constraint)
        #expect(error?.extendedResultCode.rawValue == 1555)
        #expect(error?.sql == "INSERT INTO item VALUES (?)")
    }

    @Test func aFailedWriteRollsBackEveryChange() throws {
        struct Abort: Error {}
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("rollback.sqlite"))
        try database.write { try $0.execute("CREATE TABLE item (id INTEGER)") }
        #expect(throws: Abort.self) {
            try database.write { connection in
                try connection.execute("INSERT INTO item VALUES (1)")
                try connection.execute("INSERT INTO item VALUES (2)")
                throw Abort()
            }
        }
        let count = try database.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM item") }
        #expect(count == 0)
        try database.write { try $0.execute("INSERT INTO item VALUES (3)") }
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM item") } == 1)
    }

    @Test func aReadInsideAWriteJoinsItAndANestedWriteFails() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("nested.sqlite"))
        try database.write { connection in
            try connection.execute("CREATE TABLE item (id INTEGER)")
            try connection.execute("INSERT INTO item VALUES (1)")
            let seen = try database.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM item") }
            #expect(seen == 1)
            let nested = #expect(throws: SQLiteError.self) {
                try database.write { try $0.execute("INSERT INTO item VALUES (2)") }
            }
            #expect(nested?.message.contains("within a transaction") == true)
        }
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM item") } == 1)
    }

    @Test func aScriptRunsEveryCommandAndNamesTheOneThatFails() throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("script.sqlite"))
        try database.write {
            try $0.execute(script: """
                CREATE TABLE a (x INTEGER);
                -- a comment between commands
                INSERT INTO a VALUES (1);
                INSERT INTO a VALUES (2);
                """)
        }
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT sum(x) FROM a") } == 3)
        let error = #expect(throws: SQLiteError.self) {
            try database.write { try $0.execute(script: "INSERT INTO a VALUES (3); INSERT INTO missing VALUES (4);") }
        }
        #expect(error?.sql == "INSERT INTO missing VALUES (4);")
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT sum(x) FROM a") } == 3)
    }

    @Test func committedWritesSurviveReopeningTheFile() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("reopen.sqlite")
        do {
            let database = try Database(path: path)
            try database.write { try $0.execute(script: "CREATE TABLE a (x TEXT); INSERT INTO a VALUES ('kept');") }
        }
        let reopened = try Database(path: path)
        #expect(try reopened.read { try $0.fetchValue(String.self, "SELECT x FROM a") } == "kept")
    }

    @Test func aFileThatIsNotADatabaseFailsClearlyAndStaysUntouched() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("garbage.sqlite")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SQLiteError.self) { try Database(path: path) }
        #expect(error?.resultCode == .notADatabase)
        #expect(error?.message == "file is not a database")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aMissingDirectoryCannotBeOpened() throws {
        let directory = try SQLiteTemporaryDirectory()
        let error = #expect(throws: SQLiteError.self) {
            try Database(path: directory.path("absent/dir/ledger.sqlite"))
        }
        #expect(error?.resultCode == .cannotOpen)
    }

    @Test func writesFromManyThreadsAreSerialized() async throws {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("threads.sqlite"))
        try database.write { try $0.execute(script: "CREATE TABLE counter (n INTEGER); INSERT INTO counter VALUES (0);") }
        let threads = 8
        let incrementsPerThread = 50
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<incrementsPerThread {
                try? database.write { connection in
                    let current = try connection.fetchValue(Int.self, "SELECT n FROM counter") ?? 0
                    try connection.execute("UPDATE counter SET n = ?", [current + 1])
                }
            }
        }
        #expect(try database.read { try $0.fetchValue(Int.self, "SELECT n FROM counter") } == threads * incrementsPerThread)
    }
}

@Suite struct SQLiteGroupCommitTests {
    private struct Refused: Error {}

    /// Holds the connection with one slow write while `count` others queue behind it, so they
    /// run as one group; returns how each of them ended.
    private func queueBehindASlowWrite(_ database: Database, count: Int, body: @escaping @Sendable (Int, DatabaseConnection) throws -> Void) -> [Bool] {
        let started = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[Int: Bool]>([:])
        let group = DispatchGroup()
        // Threads of their own: a dispatch queue on two cores would run the writers one by one.
        func onThread(_ work: @escaping @Sendable () -> Void) {
            group.enter()
            Thread { work(); group.leave() }.start()
        }
        onThread {
            try? database.write { connection in
                started.signal()
                Thread.sleep(forTimeInterval: 0.3)
                try connection.execute("INSERT INTO item (n) VALUES (-1)")
            }
        }
        started.wait()
        for index in 0..<count {
            onThread {
                let succeeded = (try? database.write { try body(index, $0) }) != nil
                outcomes.withLock { $0[index] = succeeded }
            }
        }
        group.wait()
        return outcomes.withLock { outcomes in (0..<count).map { outcomes[$0] ?? false } }
    }

    private func itemDatabase() throws -> (SQLiteTemporaryDirectory, Database) {
        let directory = try SQLiteTemporaryDirectory()
        let database = try Database(path: directory.path("group.sqlite"))
        try database.write { try $0.execute("CREATE TABLE item (n INTEGER NOT NULL UNIQUE)") }
        return (directory, database)
    }

    @Test func writesQueuedTogetherCommitOnceAndAThrowingOneIsRolledBackAlone() throws {
        let (directory, database) = try itemDatabase()
        let commitsBefore = database.groupCommitCount
        let outcomes = queueBehindASlowWrite(database, count: 6) { index, connection in
            try connection.execute("INSERT INTO item (n) VALUES (?)", [index])
            if index == 3 { throw Refused() }
        }
        #expect(outcomes == [true, true, true, false, true, true])
        let stored = try database.read { try $0.fetchAll("SELECT n FROM item ORDER BY n").map { try $0.decode(Int.self, at: 0) } }
        #expect(stored == [-1, 0, 1, 2, 4, 5])
        #expect(database.groupCommitCount - commitsBefore < 6, "the queued writes shared commits")
        withExtendedLifetime(directory) {}
    }

    @Test func aWriteThatBreaksTheSharedTransactionLeavesTheOthersCommitted() throws {
        let (directory, database) = try itemDatabase()
        let outcomes = queueBehindASlowWrite(database, count: 5) { index, connection in
            try connection.execute("INSERT INTO item (n) VALUES (?)", [100 + index])
            if index == 2 {
                try connection.execute("INSERT INTO item (n) VALUES (?)", [100 + index + 1000])
                // Ending the shared transaction from inside rolls back every write before it.
                try connection.execute("ROLLBACK")
                throw Refused()
            }
        }
        #expect(outcomes == [true, true, false, true, true])
        #expect(database.groupCommitCount < 4, "the queued writes shared commits")
        let stored = try database.read { try $0.fetchAll("SELECT n FROM item WHERE n >= 100 ORDER BY n").map { try $0.decode(Int.self, at: 0) } }
        #expect(stored == [100, 101, 103, 104])
        withExtendedLifetime(directory) {}
    }

    @Test func aWriteReturnsOnlyOnceItIsCommittedAndVisibleToAnotherConnection() throws {
        let (directory, database) = try itemDatabase()
        let other = try Database(path: database.path)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for round in 0..<20 {
                let n = index * 100 + round
                try? database.write { try $0.execute("INSERT INTO item (n) VALUES (?)", [n]) }
                let seen = try? other.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM item WHERE n = ?", [n]) }
                #expect(seen == 1)
            }
        }
        #expect(try other.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM item") } == 160)
        withExtendedLifetime(directory) {}
    }
}
