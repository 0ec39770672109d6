import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import Synchronization
import Testing
import TestPrerequisites

/// Several `storerules ledger ingest` processes fed the same signed data at once, on one ledger.
@Suite("storerules ledger ingest, processes at once")
struct LedgerConcurrentIngestTests {
    static let customers = 50
    static let purchasesEach = 10

    /// 500 ONE_TIME_CHARGE notifications, each carrying one box of pellets bought by one of
    /// 50 customers, whom the ledger finds by the transaction's app account token.
    static let lines: [String] = {
        (0..<customers * purchasesEach).map { number in
            let customer = number % customers
            var transaction = SignedFixtures.consumable(id: "crowd-\(number)")
            transaction.appAccountToken = token(of: customer)
            let notification = SignedFixtures.notification(
                type: .oneTimeCharge, signedTransaction: try! SignedFixtures.sign(transaction))
            return try! SignedFixtures.sign(notification)
        }
    }()

    /// The app account token of customer `number`.
    static func token(of number: Int) -> String {
        String(format: "00000000-0000-4000-8000-%012d", number)
    }

    /// Registers the customers, runs `processes` ingests of the same file at once, and checks
    /// that every transaction was granted once — one answer says `granted` for it, and the
    /// ledger holds one grant — every balance is exact and the ledger is consistent.
    static func ingestAtOnce(processes: Int, ledger: String) throws {
        let opened = try LedgerLocation(ledger).open()
        for number in 0..<customers {
            try opened.registerCustomer(id: "customer-\(number)", appAccountToken: token(of: number))
        }
        let workspace = try LedgerWorkspace()
        let path = try workspace.file(lines)
        let results = Mutex<[CommandRunner.Result]>([])
        DispatchQueue.concurrentPerform(iterations: processes) { _ in
            let result = Result { try workspace.ingest(path, ledger: ledger) }
            results.withLock { $0.append(try! result.get()) }
        }
        let outputs = results.withLock { $0 }
        #expect(outputs.map(\.status) == Array(repeating: 0, count: processes), "\(outputs.map(\.standardError))")
        let answers = try outputs.flatMap { try LedgerWorkspace.objects($0.standardOutput) }
        #expect(answers.count == processes * lines.count)
        let granted = answers.filter { $0["outcome"] as? String == "granted" }.compactMap { $0["transaction_id"] as? String }
        let outcomes = Dictionary(grouping: answers, by: { "\($0["outcome"] ?? $0["error"] ?? "")" }).mapValues(\.count)
        #expect(granted.count == lines.count, "\(outcomes)")
        #expect(Set(granted).count == lines.count)
        let misgranted = try (0..<customers * purchasesEach).filter {
            try opened.grants(ofTransaction: "crowd-\($0)") != [Grant(item: "pellet", amount: 5)]
        }
        #expect(misgranted.isEmpty, "transactions not granted exactly once: \(misgranted.count)")
        let misbalanced = try (0..<customers).filter {
            try opened.balances(customerID: "customer-\($0)") != ["pellet": 5 * purchasesEach]
        }
        #expect(misbalanced.isEmpty, "customers with a wrong balance: \(misbalanced.count)")
        let check = try LedgerWorkspace.ledger("check", "--ledger", ledger)
        #expect(check.status == 0)
        #expect(check.standardOutput == "ledger check: \(customers) customers, no violation\n")
    }

    @Test("Four processes on one PostgreSQL ledger grant each of 500 transactions once",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func fourProcessesOnPostgres() throws {
        try Self.ingestAtOnce(processes: 4, ledger: try LedgerWorkspace.freshPostgresLedger())
    }

    @Test("Two processes on one SQLite file grant each of 500 transactions once")
    func twoProcessesOnSQLite() throws {
        try Self.ingestAtOnce(processes: 2, ledger: try LedgerWorkspace().sqliteLedger())
    }
}
