import Foundation
import Testing
@testable import SQLiteLedger
import StoreCore
import TestPrerequisites

/// The embedded storage reads beside its writer: a read never waits for an open write, and
/// sees the last commit, not the write in progress.
@Suite struct SQLiteLedgerStorageReaderTests {
    @Test("a read runs while a write transaction is open, and sees only what was committed")
    func readsRunBesideAnOpenWrite() throws {
        let directory = try SQLiteTemporaryDirectory()
        let storage = try SQLiteLedgerStorage(path: directory.path("ledger.sqlite"))
        let ledger = Ledger(storage: storage)
        try ledger.registerCustomer(id: "ana")
        let insideWrite = DispatchSemaphore(value: 0)
        let readDone = DispatchSemaphore(value: 0)
        let seen = SeenCustomers()
        DispatchQueue.global().async {
            insideWrite.wait()
            seen.set((try? ledger.customers().map(\.id)) ?? ["read failed"])
            readDone.signal()
        }
        let readFinishedDuringWrite = try storage.write { writing -> Bool in
            try writing.insertCustomer(id: "bo", appAccountToken: nil, createdDate: 0)
            insideWrite.signal()
            return readDone.wait(timeout: .now() + 10) == .success
        }
        #expect(readFinishedDuringWrite, "the read waited for the write to end")
        #expect(seen.value == ["ana"])
        #expect(try ledger.customers().map(\.id).sorted() == ["ana", "bo"])
    }

    @Test("with no reader connection, reads go through the writer")
    func noReadersReadThroughTheWriter() throws {
        let directory = try SQLiteTemporaryDirectory()
        let ledger = Ledger(storage: try SQLiteLedgerStorage(path: directory.path("ledger.sqlite"), readerCount: 0))
        try ledger.registerCustomer(id: "ana")
        #expect(try ledger.customers().map(\.id) == ["ana"])
    }

    /// What the concurrent read saw.
    private final class SeenCustomers: @unchecked Sendable {
        private let lock = NSLock()
        private var ids: [String] = []
        var value: [String] { lock.withLock { ids } }
        func set(_ value: [String]) { lock.withLock { ids = value } }
    }
}
