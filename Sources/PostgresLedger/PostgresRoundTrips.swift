import Synchronization

/// How many statements a set of connections sent to the server and waited for: each is one
/// round trip, the unit a PostgreSQL ledger's cost is counted in.
public final class PostgresRoundTrips: Sendable {
    private let total = Atomic<Int>(0)

    /// A counter at zero.
    public init() {}

    /// The round trips counted so far.
    public var count: Int { total.load(ordering: .relaxed) }

    /// Counts one more.
    func add() {
        total.add(1, ordering: .relaxed)
    }
}
