import StoreCore

/// A customer's read as a storefront makes it, timed both ways a storage can make it: in one
/// statement whose rows the database gathers into JSON, and read by read in a read
/// transaction.
enum SnapshotReadTiming {
    /// Reads per way and round.
    static let reads = 1000

    /// Microseconds per read, one reader, in one statement (`oneStatement`) and read by read
    /// in `storage`, the best of interleaved rounds.
    static func measure(
        customers: [String], storage: any LedgerStorage, oneStatement: (String) throws -> CustomerSnapshot
    ) throws -> (oneStatement: Double, readByRead: Double) {
        var best = (Double.infinity, Double.infinity)
        for _ in 0..<BenchRounds.count {
            let atOnce = try ContinuousClock().measure {
                for index in 0..<reads { keep(try oneStatement(customers[index % customers.count])) }
            }
            let readByRead = try ContinuousClock().measure {
                for index in 0..<reads {
                    keep(try storage.read { try $0.customerSnapshot(customerID: customers[index % customers.count], signedData: false) })
                }
            }
            best = (min(best.0, atOnce.seconds), min(best.1, readByRead.seconds))
        }
        return (best.0 / Double(reads) * 1e6, best.1 / Double(reads) * 1e6)
    }
}
