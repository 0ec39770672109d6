import Foundation
import Synchronization
import Testing
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

@Suite struct LedgerConcurrencyTests {
    @Test func concurrentDeliveriesFromManyThreadsGrantEachTransactionOnce() throws {
        let directory = try SQLiteTemporaryDirectory()
        let ledger = try Ledger(path: directory.path("ledger.sqlite"))
        let transactionCount = 40
        let threadCount = 6
        let payloads = (0..<transactionCount).map {
            LedgerFixtures.transaction(id: "c\($0)", quantity: Int32($0 % 3 + 1), purchasedAt: Int64($0))
        }
        let decisions = Mutex(0)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threadCount) { thread in
            var generator = SeededGenerator(seed: UInt64(thread))
            for payload in payloads.shuffled(using: &generator) {
                do {
                    try ledger.ingest(
                        transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload),
                        customerID: "customer-\(Int(payload.transactionId!.dropFirst())! % 4)"
                    ) { transaction in
                        decisions.withLock { $0 += 1 }
                        return LedgerFixtures.pelletsPolicy(transaction)
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(decisions.withLock { $0 } >= transactionCount)
        for payload in payloads {
            #expect(try ledger.grants(ofTransaction: payload.transactionId!) == [Grant(item: "pellet", amount: 5 * Int(payload.quantity!))])
            #expect(try ledger.versions(ofTransaction: payload.transactionId!).count == 1)
        }
        let total = try (0..<4).reduce(0) { $0 + (try ledger.balance(of: "pellet", customerID: "customer-\($1)")) }
        #expect(total == payloads.reduce(0) { $0 + 5 * Int($1.quantity!) })
        #expect(try ledger.unfinishedTransactions().isEmpty)
        #expect(try LedgerFixtures.invariantViolations(in: ledger).isEmpty)
    }
}
