/// How large the bench's filled ledgers and rounds of ingests are: at full size, the figures the
/// README reports; quick (`storerules bench --quick`), every section at a size that checks in
/// seconds that it runs, with figures not to compare.
public struct BenchScale: Sendable, Hashable {
    /// The customers of the ledgers filled for the experiment report and the subscription
    /// metrics, ten transactions each.
    public var filledCustomers: Int
    /// The customers of each round of the outgoing events' ingests.
    public var eventCustomers: Int

    /// The sizes the goals are set for: 100,000 customers filled, 300 customers a round.
    public static let full = BenchScale(filledCustomers: 100_000, eventCustomers: 300)
    /// 1,000 customers filled, 20 customers a round.
    public static let quick = BenchScale(filledCustomers: 1_000, eventCustomers: 20)
}
