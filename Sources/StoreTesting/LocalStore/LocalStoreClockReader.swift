import Foundation
import StoreCore
import SQLiteLedger

/// A local store's clock read from its state file by another process: the host's clock moved by
/// every `storerules store advance`, or a manual clock's time, as the store's next command would
/// see it. What `storerules serve --store-clock` and `storerules ledger customer --store-clock`
/// decide at, so a developer who advances the store's clock sees renewals, lapses and win-back
/// offers through the service as the store does. Never for a service that Apple feeds.
public struct LocalStoreClockReader: Sendable {
    /// The store state file read.
    public let path: String
    private let database: Database

    /// Why a file cannot be read as a local store's clock.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What is wrong, naming the file.
        public let description: String
    }

    /// A reader of the store state file at `path`, which must exist and be a local store's.
    ///
    /// - Throws: ``Failure`` when the file does not exist, is not SQLite, or holds no store state.
    public init(statePath path: String) throws(Failure) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(description: "\(path) does not exist: give the local store's state file (LEDGER.store.sqlite, or its --store-state)")
        }
        self.path = path
        do {
            database = try Database(path: path)
        } catch {
            throw Failure(description: "\(path) cannot be opened as a local store's state: \(error)")
        }
        do {
            _ = try readNow()
        } catch {
            throw Failure(description: "\(path) is not a local store's state file (it has no clock): \(error)")
        }
    }

    /// The store's time now; the host's clock when the file cannot be read at this moment.
    public func now() -> Date {
        (try? readNow()) ?? Date()
    }

    private func readNow() throws -> Date {
        try database.read { connection in
            guard let row = try connection.fetchOne("SELECT clock_offset_ms, manual_now_ms FROM local_store_state WHERE id = 1") else {
                throw SQLiteError(extendedResultCode: .corrupt, message: "the local store has no state row", sql: "SELECT … FROM local_store_state")
            }
            if let manual: Int64 = try row.decode(column: "manual_now_ms") {
                return Date(millisecondsSince1970: manual)
            }
            let offset: Int64 = try row.decode(column: "clock_offset_ms")
            return Date(millisecondsSince1970: Date().millisecondsSince1970 + offset)
        }
    }
}
