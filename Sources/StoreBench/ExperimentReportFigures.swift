/// How long an experiment report takes over a ledger filled at scale.
public struct ExperimentReportFigures: Sendable, Encodable {
    /// `sqlite` or `postgres`.
    public var ledger: String
    /// Exposed customers in the ledger.
    public var customers: Int
    /// Transactions in the ledger.
    public var transactions: Int
    /// Seconds the bulk inserts took.
    public var fillSeconds: Double
    /// Seconds `Ledger.experimentAggregates` took for one horizon.
    public var aggregatesSeconds: Double
    /// Seconds the whole report took: every standard horizon and its statistics.
    public var reportSeconds: Double
    /// The horizons the report covered.
    public var horizons: Int

    private enum CodingKeys: String, CodingKey {
        case ledger, customers, transactions, fillSeconds = "fill_seconds", aggregatesSeconds = "aggregates_seconds"
        case reportSeconds = "report_seconds", horizons
    }
}
