/// The ledger section of `storerules bench`, each figure against a reference measured in the
/// same run.
public struct LedgerBenchFigures: Sendable, Encodable {
    /// Rounds of the SQLite ingests, the best of which each rate is.
    public var sqliteRounds = 0
    /// Transactions ingested, and reference rows inserted, each round.
    public var sqliteIngestsPerRound = 0
    /// Durable ingests per second into a SQLite ledger: store, ask, grant.
    public var ingestsPerSecond = 0.0
    /// Reference rows inserted per second into SQLite at the ledger's durability.
    public var sqliteInsertsPerSecond = 0.0
    /// `ingestsPerSecond / sqliteInsertsPerSecond`.
    public var ingestToSQLiteInsertRatio = 0.0
    /// Customer-state reads per second on two reader threads, nothing else running.
    public var readsPerSecondAlone = 0.0
    /// The same reads per second while one thread ingests.
    public var readsPerSecondBesideWrites = 0.0
    /// Ingests per second of that thread, beside the readers.
    public var ingestsPerSecondBesideReads = 0.0
    /// `readsPerSecondBesideWrites / readsPerSecondAlone`.
    public var readsBesideWritesRatio = 0.0
    /// Microseconds per customer read as a storefront reads it, in one statement whose rows
    /// SQLite gathers into JSON.
    public var snapshotReadMicroseconds = 0.0
    /// Microseconds per customer read read by read in a read transaction.
    public var readByReadMicroseconds = 0.0
    /// The PostgreSQL section, when a server was given.
    public var postgres: PostgresLedgerBenchFigures?
    /// Why the PostgreSQL section did not run.
    public var postgresSkipped: String?
    /// How the PostgreSQL section failed.
    public var postgresFailed: String?

    /// The goal of ``ingestToSQLiteInsertRatio``.
    public static let ingestToSQLiteInsertGoal = 0.8

    enum CodingKeys: String, CodingKey {
        case sqliteRounds = "sqlite_rounds", sqliteIngestsPerRound = "sqlite_ingests_per_round"
        case ingestsPerSecond = "ledger_ingests_per_second"
        case sqliteInsertsPerSecond = "sqlite_inserts_per_second"
        case ingestToSQLiteInsertRatio = "ledger_ingest_to_sqlite_insert_ratio"
        case readsPerSecondAlone = "sqlite_reads_per_second_alone"
        case readsPerSecondBesideWrites = "sqlite_reads_per_second_beside_writes"
        case ingestsPerSecondBesideReads = "sqlite_ingests_per_second_beside_reads"
        case readsBesideWritesRatio = "sqlite_reads_beside_writes_ratio"
        case snapshotReadMicroseconds = "sqlite_snapshot_read_us"
        case readByReadMicroseconds = "sqlite_read_by_read_us"
        case postgresSkipped = "postgres_skipped"
        case postgresFailed = "postgres_failed"
    }

    /// Encodes the figures, and PostgreSQL's beside them under their own names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sqliteRounds, forKey: .sqliteRounds)
        try container.encode(sqliteIngestsPerRound, forKey: .sqliteIngestsPerRound)
        try container.encode(ingestsPerSecond, forKey: .ingestsPerSecond)
        try container.encode(sqliteInsertsPerSecond, forKey: .sqliteInsertsPerSecond)
        try container.encode(ingestToSQLiteInsertRatio, forKey: .ingestToSQLiteInsertRatio)
        try container.encode(readsPerSecondAlone, forKey: .readsPerSecondAlone)
        try container.encode(readsPerSecondBesideWrites, forKey: .readsPerSecondBesideWrites)
        try container.encode(ingestsPerSecondBesideReads, forKey: .ingestsPerSecondBesideReads)
        try container.encode(readsBesideWritesRatio, forKey: .readsBesideWritesRatio)
        try container.encode(snapshotReadMicroseconds, forKey: .snapshotReadMicroseconds)
        try container.encode(readByReadMicroseconds, forKey: .readByReadMicroseconds)
        try container.encodeIfPresent(postgresSkipped, forKey: .postgresSkipped)
        try container.encodeIfPresent(postgresFailed, forKey: .postgresFailed)
        try postgres?.encode(to: encoder)
    }
}
