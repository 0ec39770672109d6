/// How large the bench's filled ledgers and rounds of ingests are: at full size, the figures the
/// README reports; quick (`storerules bench --quick`), every section at a size that checks in
/// seconds that it runs, with figures not to compare.
public struct BenchScale: Sendable, Hashable {
    /// The customers of the ledgers filled for the experiment report and the subscription
    /// metrics, ten transactions each.
    public var filledCustomers: Int
    /// The customers of each round of the outgoing events' ingests.
    public var eventCustomers: Int
    /// The rounds of the ledger section's SQLite ingests.
    public var ledgerRounds: Int
    /// The transactions each of those rounds ingests against as many raw inserts; beside the
    /// readers, three quarters as many.
    public var ledgerIngests: Int

    /// The sizes the goals are set for: 100,000 customers filled, 300 customers a round;
    /// 5 rounds of 400 ledger ingests.
    public static let full = BenchScale(filledCustomers: 100_000, eventCustomers: 300, ledgerRounds: BenchRounds.count, ledgerIngests: 400)
    /// 1,000 customers filled, 20 customers a round; 1 round of 40 ledger ingests.
    public static let quick = BenchScale(filledCustomers: 1_000, eventCustomers: 20, ledgerRounds: 1, ledgerIngests: 40)

    /// Transactions the ledger section ingests each round beside its readers.
    var ingestsBesideReads: Int { ledgerIngests * 3 / 4 }
}
