import Foundation
import Testing
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

@Suite struct LedgerRevocationTests {
    private let directory: SQLiteTemporaryDirectory
    private let ledger: Ledger

    init() throws {
        directory = try SQLiteTemporaryDirectory()
        ledger = try Ledger(path: directory.path("ledger.sqlite"))
    }

    @Test func aRefundReversesTheGrantsOnceAndKeepsTheHistory() throws {
        let purchase = LedgerFixtures.transaction(id: "5000", quantity: 2, signedAt: 0)
        let refund = LedgerFixtures.transaction(id: "5000", quantity: 2, signedAt: 3_000, revokedAt: 2_500)
        try ledger.ingest(transaction: purchase, jwsRepresentation: LedgerFixtures.jws(purchase), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let other = LedgerFixtures.transaction(id: "5001")
        try ledger.ingest(transaction: other, jwsRepresentation: LedgerFixtures.jws(other), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 15)

        let revoked = try ledger.ingest(transaction: refund, jwsRepresentation: LedgerFixtures.jws(refund), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(revoked.storage == .updated)
        #expect(revoked.outcome == .revoked(reversed: [Grant(item: "pellet", amount: 10)]))
        #expect(revoked.transaction.isRevoked)
        #expect(revoked.transaction.revocationDate == LedgerFixtures.date(2_500))
        #expect(revoked.transaction.revocationReason == .refundedDueToIssue)
        #expect(revoked.transaction.jwsRepresentation == LedgerFixtures.jws(refund))
        #expect(try ledger.grants(ofTransaction: "5000") == [Grant(item: "pellet", amount: 10)])
        #expect(try ledger.reversedGrants(ofTransaction: "5000") == [Grant(item: "pellet", amount: 10)])
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 5)

        let again = try ledger.ingest(transaction: refund, jwsRepresentation: LedgerFixtures.jws(refund), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(again.outcome == .alreadyFinished)
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 5)
        let versions = try ledger.versions(ofTransaction: "5000")
        #expect(versions.map(\.revocationDate) == [nil, LedgerFixtures.date(2_500)])
        #expect(try LedgerFixtures.invariantViolations(in: ledger).isEmpty)
    }

    @Test func aBalanceMayGoBelowZeroWhenGrantedItemsWereAlreadyUsed() throws {
        let purchase = LedgerFixtures.transaction(id: "5002", signedAt: 0)
        let refund = LedgerFixtures.transaction(id: "5002", signedAt: 1_000, revokedAt: 900)
        try ledger.ingest(transaction: purchase, jwsRepresentation: LedgerFixtures.jws(purchase), customerID: "ada") { _ in
            [Grant(item: "pellet", amount: 5)]
        }
        try ledger.ingest(transaction: refund, jwsRepresentation: LedgerFixtures.jws(refund), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let unrelated = LedgerFixtures.transaction(id: "5003", productID: "seeds")
        try ledger.ingest(transaction: unrelated, jwsRepresentation: LedgerFixtures.jws(unrelated), customerID: "ada") { _ in
            [Grant(item: "seed", amount: 1)]
        }
        #expect(try ledger.balances(customerID: "ada") == ["seed": 1], "an item at zero reads as never granted")
    }

    @Test func aTransactionRevokedBeforeItsGrantIsFinishedWithoutGrants() throws {
        let payload = LedgerFixtures.transaction(id: "5004", signedAt: 1_000, revokedAt: 900)
        let result = try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada") { _ in
            Issue.record("a revoked transaction must not be granted")
            return []
        }
        #expect(result.outcome == .revoked(reversed: []))
        #expect(result.transaction.grantState == .revokedBeforeGrant)
        #expect(result.transaction.isFinished)
        #expect(try ledger.unfinishedTransactions().isEmpty)
        #expect(try ledger.balances(customerID: "ada").isEmpty)
    }

    @Test func revokingAnUnfinishedTransactionFinishesItWithoutGrants() throws {
        struct Broken: Error {}
        let purchase = LedgerFixtures.transaction(id: "5005", signedAt: 0)
        let refund = LedgerFixtures.transaction(id: "5005", signedAt: 1_000, revokedAt: 900)
        try ledger.ingest(transaction: purchase, jwsRepresentation: LedgerFixtures.jws(purchase), customerID: "ada") { _ in throw Broken() }
        let revoked = try ledger.ingest(transaction: refund, jwsRepresentation: LedgerFixtures.jws(refund), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(revoked.outcome == .revoked(reversed: []))
        #expect(revoked.transaction.grantState == .revokedBeforeGrant)
        #expect(try ledger.retryUnfinished(decide: LedgerFixtures.pelletsPolicy).isEmpty)
        #expect(try ledger.balances(customerID: "ada").isEmpty)
    }

    @Test func aWithdrawnRevocationRestoresTheReversedGrants() throws {
        let purchase = LedgerFixtures.transaction(id: "5006", signedAt: 0)
        let refund = LedgerFixtures.transaction(id: "5006", signedAt: 1_000, revokedAt: 900)
        let reinstated = LedgerFixtures.transaction(id: "5006", signedAt: 2_000)
        for payload in [purchase, refund] {
            try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        }
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 0)
        let result = try ledger.ingest(transaction: reinstated, jwsRepresentation: LedgerFixtures.jws(reinstated), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(result.outcome == .revocationWithdrawn(restored: [Grant(item: "pellet", amount: 5)]))
        #expect(!result.transaction.isRevoked)
        #expect(try ledger.reversedGrants(ofTransaction: "5006").isEmpty)
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 5)
        #expect(try ledger.versions(ofTransaction: "5006").count == 3)
        #expect(try LedgerFixtures.invariantViolations(in: ledger).isEmpty)
    }

    @Test func aWithdrawnRevocationOfANeverGrantedTransactionGrantsIt() throws {
        let refund = LedgerFixtures.transaction(id: "5007", signedAt: 1_000, revokedAt: 900)
        let reinstated = LedgerFixtures.transaction(id: "5007", signedAt: 2_000)
        try ledger.ingest(transaction: refund, jwsRepresentation: LedgerFixtures.jws(refund), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        let result = try ledger.ingest(transaction: reinstated, jwsRepresentation: LedgerFixtures.jws(reinstated), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(result.outcome == .granted([Grant(item: "pellet", amount: 5)]))
        #expect(result.transaction.grantState == .granted)
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 5)
    }
}
