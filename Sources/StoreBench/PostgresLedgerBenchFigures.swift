/// The PostgreSQL part of the ledger section: ingests through ``PostgresLedgerStorage`` against
/// plain inserts of the same rows, for each number of concurrent writers. Keyed by the number
/// of writers, as text (`"1"`, `"2"`, `"8"`).
public struct PostgresLedgerBenchFigures: Sendable, Encodable {
    /// The numbers of concurrent writers measured.
    public static let writerCounts = [1, 2, 8]

    /// Durable ledger ingests per second, all writers together.
    public var ingestsPerSecond: [String: Double] = [:]
    /// Reference rows inserted per second, one statement per commit, all writers together.
    public var insertsPerSecond: [String: Double] = [:]
    /// `ingestsPerSecond / insertsPerSecond`, per number of writers.
    public var ingestToInsertRatio: [String: Double] = [:]
    /// The server's `synchronous_commit`, which both sides ran at.
    public var synchronousCommit = ""
    /// The server's `fsync`: `off` on a test server, where a commit never waits for the disk.
    public var fsync = ""
    /// Statements sent to the server per ingest of a new transaction, one writer: each a round trip.
    public var roundTripsPerIngest = 0.0
    /// Statements sent per read of a customer's state as a storefront reads it (without signed
    /// data), one reader: each a round trip.
    public var roundTripsPerStorefront = 0.0
    /// Microseconds per storefront's read of a customer in one statement, one reader.
    public var snapshotReadMicroseconds = 0.0
    /// Microseconds per storefront's read of a customer read by read in a read transaction.
    public var readByReadMicroseconds = 0.0

    enum CodingKeys: String, CodingKey {
        case ingestsPerSecond = "postgres_ingests_per_second"
        case insertsPerSecond = "postgres_inserts_per_second"
        case ingestToInsertRatio = "postgres_ingest_to_insert_ratio"
        case synchronousCommit = "postgres_synchronous_commit"
        case fsync = "postgres_fsync"
        case roundTripsPerIngest = "postgres_round_trips_per_ingest"
        case roundTripsPerStorefront = "postgres_round_trips_per_storefront"
        case snapshotReadMicroseconds = "postgres_snapshot_read_us"
        case readByReadMicroseconds = "postgres_read_by_read_us"
    }
}
