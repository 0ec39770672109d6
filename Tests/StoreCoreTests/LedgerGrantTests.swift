import Foundation
import Synchronization
import Testing
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

@Suite struct LedgerGrantTests {
    private struct PolicyError: Error, CustomStringConvertible {
        var description: String { "grant hook failed at policy.lua:12: attempt to index a nil value" }
    }

    private let directory: SQLiteTemporaryDirectory
    private let ledger: Ledger

    init() throws {
        directory = try SQLiteTemporaryDirectory()
        ledger = try Ledger(path: directory.path("ledger.sqlite"))
    }

    @Test func aFailingDecisionLeavesTheTransactionUnfinishedAndARetryGrantsItOnce() throws {
        let payload = LedgerFixtures.transaction(id: "4000", quantity: 2)
        let failed = try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada") { _ in
            throw PolicyError()
        }
        let reason = UnfinishedReason.decisionFailed("grant hook failed at policy.lua:12: attempt to index a nil value")
        #expect(failed.storage == .inserted)
        #expect(failed.outcome == .unfinished(reason))
        #expect(try ledger.transaction(id: "4000")?.grantState == .unfinished(reason))
        #expect(try ledger.unfinishedTransactions().map(\.id) == ["4000"])
        #expect(try ledger.grants(ofTransaction: "4000").isEmpty)
        #expect(try ledger.balances(customerID: "ada").isEmpty)

        let retried = try ledger.retryUnfinished(decide: LedgerFixtures.pelletsPolicy)
        #expect(retried.map(\.outcome) == [.granted([Grant(item: "pellet", amount: 10)])])
        #expect(retried.map(\.storage) == [.unchanged])
        #expect(try ledger.unfinishedTransactions().isEmpty)
        #expect(try ledger.retryUnfinished(decide: LedgerFixtures.pelletsPolicy).isEmpty)
        let redelivered = try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(redelivered.outcome == .alreadyFinished)
        #expect(try ledger.balances(customerID: "ada") == ["pellet": 10])
    }

    @Test func redeliveringAnUnfinishedTransactionAsksTheDecisionAgain() throws {
        let payload = LedgerFixtures.transaction(id: "4001")
        let jws = LedgerFixtures.jws(payload)
        try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: "ada") { _ in throw PolicyError() }
        let second = try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(second.storage == .unchanged)
        #expect(second.outcome == .granted([Grant(item: "pellet", amount: 5)]))
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 5)
    }

    @Test(arguments: [
        ([Grant(item: "", amount: 5)], GrantValidationError.Problem.emptyItem),
        ([Grant(item: "pellet", amount: -5)], .amountNotPositive),
        ([Grant(item: "pellet", amount: 0)], .amountNotPositive),
        ([Grant(item: "pellet", amount: Grant.maximumAmount + 1)], .amountTooLarge),
        ([Grant(item: " pellet", amount: 1)], .itemHasSurroundingWhitespace),
        ([Grant(item: "pel\u{7}let", amount: 1)], .itemHasControlCharacters),
        ([Grant(item: "pellet", amount: 5), Grant(item: "", amount: 1)], .emptyItem),
    ])
    func anInvalidGrantRefusesTheWholeDecision(grants: [Grant], problem: GrantValidationError.Problem) throws {
        let payload = LedgerFixtures.transaction(id: "4002")
        let result = try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada") { _ in grants }
        let invalid = try #require(grants.first { (try? $0.validate()) == nil })
        let expected = GrantValidationError(grant: invalid, problem: problem)
        #expect(result.outcome == .unfinished(.invalidGrant(expected.description)))
        #expect(try ledger.grants(ofTransaction: "4002").isEmpty)
        #expect(try ledger.balances(customerID: "ada").isEmpty)
        #expect(try ledger.retryUnfinished(decide: LedgerFixtures.pelletsPolicy).map(\.outcome) == [.granted([Grant(item: "pellet", amount: 5)])])
    }

    @Test func validGrantsPassValidation() throws {
        try Grant(item: "pellet", amount: 1).validate()
        try Grant(item: "bird bath", amount: Grant.maximumAmount).validate()
        try Grant(item: "graine-de-tournesol 🌻", amount: 42).validate()
    }

    @Test func aRetryThatFailsAgainRecordsTheNewReason() throws {
        let payload = LedgerFixtures.transaction(id: "4003")
        try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada") { _ in throw PolicyError() }
        let retried = try ledger.retryUnfinished { _ in [Grant(item: "pellet", amount: -1)] }
        guard case .unfinished(.invalidGrant(let detail)) = retried.first?.outcome else {
            Issue.record("expected an invalid grant, got \(String(describing: retried.first?.outcome))")
            return
        }
        #expect(detail.contains("at least 1"))
        #expect(try ledger.transaction(id: "4003")?.grantState == .unfinished(.invalidGrant(detail)))
    }

    @Test func retryingOneCustomerLeavesTheOthersUnfinished() throws {
        for (id, customer) in [("4004", "ada"), ("4005", "bob")] {
            let payload = LedgerFixtures.transaction(id: id)
            try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: customer) { _ in throw PolicyError() }
        }
        let retried = try ledger.retryUnfinished(customerID: "bob", decide: LedgerFixtures.pelletsPolicy)
        #expect(retried.map(\.transaction.id) == ["4005"])
        #expect(try ledger.unfinishedTransactions().map(\.id) == ["4004"])
        #expect(try ledger.unfinishedTransactions(customerID: "bob").isEmpty)
    }

    @Test func theDecisionMayReadTheLedger() throws {
        let first = LedgerFixtures.transaction(id: "4006", purchasedAt: 0)
        let second = LedgerFixtures.transaction(id: "4007", purchasedAt: 1)
        let bonusPolicy: (StoredTransaction) throws -> [Grant] = { transaction in
            let owned = try ledger.balance(of: "pellet", customerID: transaction.customerID)
            return [Grant(item: "pellet", amount: owned == 0 ? 10 : 5)]
        }
        try ledger.ingest(transaction: first, jwsRepresentation: LedgerFixtures.jws(first), customerID: "ada", decide: bonusPolicy)
        try ledger.ingest(transaction: second, jwsRepresentation: LedgerFixtures.jws(second), customerID: "ada", decide: bonusPolicy)
        #expect(try ledger.balance(of: "pellet", customerID: "ada") == 15)
    }

    @Test func balancesAreTheSumOfGrantsMinusReversalsThroughAMixedHistory() throws {
        var generator = SeededGenerator(seed: 7)
        var expected: [String: [String: Int]] = [:]
        for index in 0..<60 {
            let customer = ["ada", "bob", "cy"][Int.random(in: 0..<3, using: &generator)]
            let quantity = Int32.random(in: 1...4, using: &generator)
            let payload = LedgerFixtures.transaction(id: "m\(index)", quantity: quantity, purchasedAt: Int64(index))
            let fails = Int.random(in: 0..<5, using: &generator) == 0
            let result = try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: customer) { transaction in
                if fails { throw PolicyError() }
                return [Grant(item: "pellet", amount: 5 * transaction.purchasedQuantity), Grant(item: "seed", amount: 1)]
            }
            if !fails {
                expected[customer, default: [:]]["pellet", default: 0] += 5 * Int(quantity)
                expected[customer, default: [:]]["seed", default: 0] += 1
            }
            if result.transaction.isFinished, Int.random(in: 0..<4, using: &generator) == 0 {
                let refund = LedgerFixtures.transaction(id: "m\(index)", quantity: quantity, purchasedAt: Int64(index), signedAt: 1_000, revokedAt: 900)
                try ledger.ingest(transaction: refund, jwsRepresentation: LedgerFixtures.jws(refund), customerID: customer, decide: LedgerFixtures.pelletsPolicy)
                expected[customer, default: [:]]["pellet", default: 0] -= 5 * Int(quantity)
                expected[customer, default: [:]]["seed", default: 0] -= 1
            }
        }
        for (customer, balances) in expected {
            #expect(try ledger.balances(customerID: customer) == balances)
        }
        #expect(try LedgerFixtures.invariantViolations(in: ledger).isEmpty)
    }
}

/// A small deterministic random number generator (SplitMix64), so mixed-history tests replay.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
