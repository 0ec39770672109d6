import Foundation
import PostgresLedger
import StoreCore

/// Durable ingests per second into a PostgreSQL ledger with several writers, against raw
/// inserts of the same rows at the same `synchronous_commit`.
public enum PostgresIngestBench {
    /// Transactions ingested, and reference rows inserted, per round and number of writers,
    /// shared among the writers.
    public static let ingestCount = 240

    /// The supply's size the PostgreSQL rounds need.
    static var supplyCount: Int { BenchRounds.count * PostgresLedgerBenchFigures.writerCounts.count * ingestCount }

    /// Measures, in interleaved rounds in a new database on the server at `serverURL`, durable
    /// ingests per second through ``PostgresLedgerStorage`` with 1, 2 and 8 writer threads (as
    /// many connections) against the same transactions inserted as reference rows by as many
    /// threads, each over a connection of its own, one statement per commit, at the same
    /// `synchronous_commit`; records the best of each. The database is dropped afterwards.
    static func measure(_ supply: BenchTransactionSupply, serverURL: String) throws -> PostgresLedgerBenchFigures {
        let database = try BenchPostgresDatabase(serverURL: serverURL)
        defer { try? database.drop() }
        var figures = PostgresLedgerBenchFigures()
        figures.synchronousCommit = try database.setting("synchronous_commit")
        figures.fsync = try database.setting("fsync")
        do {
            let connection = try PostgresConnection(url: database.url)
            for statement in ReferenceTransactionRow.table.createStatements(in: .postgres) { _ = try connection.execute(statement) }
        }
        let counts = PostgresLedgerBenchFigures.writerCounts
        let storages = try counts.map { try PostgresLedgerStorage(url: database.url, connections: $0) }
        let ledgers = storages.map { Ledger(storage: $0) }
        var ingests = [Double](repeating: 0, count: counts.count)
        var inserts = [Double](repeating: 0, count: counts.count)
        for round in 0..<BenchRounds.count {
            for (position, writers) in counts.enumerated() {
                let items = Array(supply.slice(from: (round * counts.count + position) * ingestCount, count: ingestCount))
                let ledger = ledgers[position]
                let roundTripsBefore = storages[position].roundTrips
                let ingestSeconds = try BenchThreads.run(count: writers, prepare: { $0 }) { writer in
                    for item in stride(from: writer, to: items.count, by: writers).map({ items[$0] }) {
                        try BenchTransactionSupply.ingest(item, into: ledger)
                    }
                }
                let storedDate = Date().millisecondsSince1970
                let insertSeconds = try BenchThreads.run(count: writers, prepare: { (try PostgresConnection(url: database.url), $0) }) { connection, writer in
                    for item in stride(from: writer, to: items.count, by: writers).map({ items[$0] }) {
                        try ReferenceTransactionRow(item: item, storedDate: storedDate).insert(into: connection)
                    }
                }
                if round == 0, writers == 1 {
                    // One writer: every round trip counted belongs to these ingests, then to these reads.
                    figures.roundTripsPerIngest = Double(storages[position].roundTrips - roundTripsBefore) / Double(items.count)
                    let customers = Set(items.map(\.customerID)).sorted()
                    let readsBefore = storages[position].roundTrips
                    for customer in customers {
                        _ = try ledger.customerState(customerID: customer, signedData: false)
                    }
                    figures.roundTripsPerStorefront = Double(storages[position].roundTrips - readsBefore) / Double(customers.count)
                    (figures.snapshotReadMicroseconds, figures.readByReadMicroseconds) = try SnapshotReadTiming.measure(
                        customers: customers, storage: storages[position],
                        oneStatement: { try storages[position].customerSnapshot(customerID: $0) })
                }
                ingests[position] = max(ingests[position], Double(items.count) / ingestSeconds)
                inserts[position] = max(inserts[position], Double(items.count) / insertSeconds)
            }
        }
        for (position, writers) in counts.enumerated() {
            figures.ingestsPerSecond[String(writers)] = ingests[position]
            figures.insertsPerSecond[String(writers)] = inserts[position]
            figures.ingestToInsertRatio[String(writers)] = ingests[position] / inserts[position]
        }
        return figures
    }
}
