import Foundation
import StoreCore

/// The embedded ledger storage: one SQLite file in WAL mode, written through one connection
/// and read through a pool of others, as GRDB's `DatabasePool` does.
///
/// Writes run one at a time inside `BEGIN IMMEDIATE`, which takes SQLite's write lock up
/// front, so a write never meets a concurrent writer and row locks need nothing more. Reads
/// run on reader connections beside the writer: each sees the snapshot of the last commit
/// when it began, and none waits behind a write's `fsync`.
public final class SQLiteLedgerStorage: LedgerStorage {
    /// The connection every write goes through; also where migrations run.
    public let database: Database
    private let readers: DatabaseReaderPool

    /// How many reader connections a storage opens by default.
    public static let defaultReaderCount = 4

    /// Opens (creating when missing) the ledger file at `path` and brings its schema up to date.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database;
    ///   ``LedgerMigrationError`` when its schema cannot be brought up to date.
    public convenience init(path: String, readerCount: Int = defaultReaderCount) throws {
        try self.init(database: Database(path: path), readerCount: readerCount)
    }

    /// Uses `database` for writes, bringing its schema up to date, with `readerCount` reader
    /// connections on the same file (with none, reads go through the writer).
    public init(database: Database, readerCount: Int = defaultReaderCount) throws {
        try LedgerMigrator.ledger(.sqlite).migrate(SQLiteLedgerMigrationHost(database: database))
        self.database = database
        readers = try DatabaseReaderPool(path: database.path, size: max(0, readerCount))
    }

    deinit {
        readers.close()
    }

    /// The schema version of the file: the number of ledger migrations applied.
    public var schemaVersion: Int {
        get throws { try SQLiteLedgerMigrationHost(database: database).schemaVersion() }
    }

    public func read<T>(_ body: (any LedgerReading) throws -> T) throws -> T {
        try reading { try body(SQLLedgerTransaction(connection: $0)) }
    }

    /// The snapshot read by read in one read transaction, on a reader beside the writer: on
    /// SQLite a statement is a function call, not a round trip, and rows read directly cost
    /// less than rows gathered into JSON and parsed again (`storerules bench` times both as
    /// `sqlite_read_by_read_us` and `sqlite_snapshot_read_us`).
    public func customerSnapshot(customerID: String) throws -> CustomerSnapshot {
        try read { try $0.customerSnapshot(customerID: customerID, signedData: false) }
    }

    /// The snapshot in one statement whose rows SQLite gathers into JSON, on a reader: the
    /// statement PostgreSQL reads a snapshot with, in SQLite's dialect.
    public func customerSnapshotInOneStatement(customerID: String) throws -> CustomerSnapshot {
        try reading { try SQLLedgerTransaction(connection: $0).customerSnapshotInOneStatement(customerID: customerID) }
    }

    /// Runs `body` on a reader connection, or on the writer's when there are none.
    private func reading<T>(_ body: (DatabaseConnection) throws -> T) throws -> T {
        guard readers.size > 0 else { return try database.read(body) }
        return try readers.read(body)
    }

    public func write<T>(durability: LedgerWriteDurability, _ body: (any LedgerWriting) throws -> T) throws -> T {
        try database.write(waitingForDisk: durability == .disk) { try body(SQLLedgerTransaction(connection: $0)) }
    }
}
