/// The goals that set one section's figures against another's, both measured in the same
/// `storerules bench` run: what HTTP, JSON and verification add to a library ingest, and the
/// storefront a PostgreSQL ledger serves against SQLite's.
public struct CrossSectionRatios: Sendable, Encodable {
    /// Notification POSTs per second of one `storerules serve` instance on SQLite, over the
    /// ledger's library ingests per second on SQLite; nil without both sections.
    public var httpNotificationToLedgerIngest: Double?
    /// Storefront GETs per second of one instance on PostgreSQL, over one instance on SQLite;
    /// nil without a PostgreSQL run.
    public var postgresStorefrontToSQLiteStorefront: Double?

    /// The goal of ``httpNotificationToLedgerIngest``.
    public static let httpNotificationToLedgerIngestGoal = 0.6
    /// The goal of ``postgresStorefrontToSQLiteStorefront``.
    public static let postgresStorefrontToSQLiteStorefrontGoal = 0.7

    private enum CodingKeys: String, CodingKey {
        case httpNotificationToLedgerIngest = "http_notification_to_ledger_ingest_ratio"
        case postgresStorefrontToSQLiteStorefront = "postgres_storefront_to_sqlite_storefront_ratio"
    }

    /// The ratios the two sections allow.
    public init(ledger: LedgerBenchFigures?, http: HTTPBenchSection?) {
        let sqlite = http?.runs.first { $0.ledger == "sqlite" && $0.instances == 1 }
        let postgres = http?.runs.first { $0.ledger == "postgres" && $0.instances == 1 }
        if let ledger, let sqlite, ledger.ingestsPerSecond > 0 {
            httpNotificationToLedgerIngest = sqlite.notifications.requestsPerSecond / ledger.ingestsPerSecond
        }
        if let sqlite, let postgres, sqlite.storefront.requestsPerSecond > 0 {
            postgresStorefrontToSQLiteStorefront = postgres.storefront.requestsPerSecond / sqlite.storefront.requestsPerSecond
        }
    }

    /// Whether there is any ratio to show.
    public var isEmpty: Bool {
        httpNotificationToLedgerIngest == nil && postgresStorefrontToSQLiteStorefront == nil
    }
}
