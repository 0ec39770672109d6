import Foundation
import StoreCore
import Testing
@testable import StorePolicy

/// A `grant` rule that reads a variant records the exposure before its grants are stored.
@Suite struct ExperimentGrantTests {
    typealias Store = BackyardBirdsLedger

    static let policy = """
    local policy = { experiments = { bonus = { variants = { control = 1, extra = 1 } } } }
    function policy.grant(ctx, tx, product)
        local amount = ctx.experiments.bonus == "extra" and 6 or 5
        return { { item = "pellet", amount = amount * tx.quantity } }
    end
    return policy
    """

    @Test func theGrantsVariantIsRecordedOnceAndKeptForTheNextGrant() throws {
        let store = try Store()
        let engine = try store.engine(Self.policy)
        let declaration = try #require(engine.experiments["bonus"])
        let variant = try #require(declaration.assignedVariant(customerID: "ada"))
        let decide = engine.grantDecision(for: store.ledger, catalog: store.catalog, clock: { Store.day(1) })
        let first = try store.ingest(Store.transaction("40", product: "pellet.box", type: .consumable, bought: 1), decide: decide)
        let amount = variant == "extra" ? 6 : 5
        #expect(first.outcome == .granted([Grant(item: "pellet", amount: amount)]))
        let exposures = try store.ledger.exposures(customerID: "ada")
        #expect(exposures.map(\.variant) == [variant] && exposures.first?.hook == "grant" && exposures.first?.phase == declaration.phase)
        #expect(try store.ledger.experimentPhases(experiment: "bonus").map(\.phase) == [declaration.phase])

        _ = try store.ingest(Store.transaction("41", product: "pellet.box", type: .consumable, bought: 2), decide: decide)
        #expect(try store.ledger.exposures(customerID: "ada").count == 1)
    }

    @Test func recordingAVariantTheLedgerHoldsOtherwiseSaysSo() throws {
        let store = try Store()
        let engine = try store.engine(Self.policy)
        let declaration = try #require(engine.experiments["bonus"])
        let assigned = try #require(declaration.assignedVariant(customerID: "ada"))
        let other = assigned == "extra" ? "control" : "extra"
        // A decision made on the ledger's snapshot before another writer recorded `other`.
        let decision = try engine.grant(PolicyContext(customer: CustomerContext(id: "ada", statusKnown: true)),
                                        transaction: JWSTransactionDecodedPayload(transactionId: "x", productId: "pellet.box", quantity: 1, type: .consumable),
                                        product: "pellet.box")
        #expect(decision.exposures.map(\.variant) == [assigned])
        try store.ledger.recordExposures([ExperimentExposure(
            customerID: "ada", experiment: "bonus", phase: declaration.phase, variant: other, exposedDate: Store.day(0),
            policyVersion: "elsewhere", hook: "grant")], phases: [])
        #expect(try engine.record(decision.exposures, in: store.ledger, at: Store.day(1)) == false)
    }
}
