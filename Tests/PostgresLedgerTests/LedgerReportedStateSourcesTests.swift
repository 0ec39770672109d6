import Foundation
import PostgresLedger
@testable import StoreCore
import Testing
import TestPrerequisites

/// The outbox derives each reported state from the transactions that can speak for it, not the
/// customer's whole history, and the state is the one the whole history gives.
@Suite struct LedgerReportedStateSourcesTests {
    typealias Payloads = LedgerPayloads
    private static let day = Payloads.day

    private func transaction(
        _ id: String, original: String, product: String, type: TransactionProductType = .autoRenewableSubscription,
        group: String? = "G1", purchasedAt: Int64, expiresAt: Int64? = nil, revokedAt: Int64? = nil, upgraded: Bool = false,
        ownership: InAppOwnershipType = .purchased
    ) -> JWSTransactionDecodedPayload {
        var payload = Payloads.transaction(id: id, originalID: original, productID: product, type: type, purchasedAt: purchasedAt,
                                           expiresAt: expiresAt, signedAt: revokedAt ?? purchasedAt, revokedAt: revokedAt)
        payload.subscriptionGroupIdentifier = type == .autoRenewableSubscription ? group : nil
        payload.isUpgraded = upgraded
        payload.inAppOwnershipType = ownership
        return payload
    }

    /// A customer with a long history of every kind: a year of monthly renewals upgraded to a
    /// yearly plan, a yearly plan upgraded to a monthly one that ends first, a family-shared
    /// subscription, a
    /// subscription without a group whose last renewal was refunded, non-consumables (one
    /// refunded), non-renewing passes and consumables.
    private func history() -> [JWSTransactionDecodedPayload] {
        let day = Self.day
        var payloads: [JWSTransactionDecodedPayload] = []
        for month in 0..<12 {
            payloads.append(transaction("m\(month)", original: "m0", product: "pass.monthly", purchasedAt: Int64(month) * 30 * day,
                                        expiresAt: Int64(month + 1) * 30 * day))
        }
        payloads.append(transaction("m12", original: "m0", product: "pass.monthly", purchasedAt: 360 * day, expiresAt: 390 * day,
                                    revokedAt: 370 * day, upgraded: true))
        payloads.append(transaction("y1", original: "m0", product: "pass.yearly", purchasedAt: 370 * day, expiresAt: 735 * day))
        payloads.append(transaction("u0", original: "u0", product: "plus.yearly", group: "G3", purchasedAt: 0, expiresAt: 365 * day,
                                    upgraded: true))
        payloads.append(transaction("u1", original: "u0", product: "premium.monthly", group: "G3", purchasedAt: 10 * day,
                                    expiresAt: 40 * day))
        for month in 0..<4 {
            payloads.append(transaction("f\(month)", original: "f0", product: "family.monthly", group: "G2",
                                        purchasedAt: Int64(month) * 30 * day, expiresAt: Int64(month + 1) * 30 * day,
                                        ownership: .familyShared))
        }
        for month in 0..<3 {
            payloads.append(transaction("n\(month)", original: "n0", product: "nogroup.monthly", group: nil,
                                        purchasedAt: Int64(month) * 30 * day, expiresAt: 380 * day + Int64(month) * 30 * day,
                                        revokedAt: month == 2 ? 371 * day : nil))
        }
        payloads.append(transaction("album", original: "album", product: "album", type: .nonConsumable, purchasedAt: 5 * day))
        payloads.append(transaction("theme", original: "theme", product: "theme", type: .nonConsumable, purchasedAt: 6 * day,
                                    revokedAt: 7 * day))
        for pass in 0..<3 {
            payloads.append(transaction("p\(pass)", original: "p\(pass)", product: "season.pass", type: .nonRenewingSubscription,
                                        purchasedAt: Int64(pass) * 100 * day, expiresAt: Int64(pass + 1) * 100 * day + 50 * day))
        }
        for box in 0..<5 {
            payloads.append(transaction("c\(box)", original: "c\(box)", product: "pellet.box", type: .consumable,
                                        purchasedAt: Int64(box) * day))
        }
        return payloads
    }

    @Test("a customer's reported state is derived from one transaction a subscription and no consumable, and equals the state their whole history gives",
          arguments: LedgerBackend.available)
    func reportedStateFromTheTransactionsThatSpeakForIt(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        for payload in history() {
            _ = try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: "ana", decide: Payloads.grants)
        }
        let renewal = Payloads.renewalInfo(originalID: "m0", productID: "pass.yearly", signedAt: 370 * Self.day, autoRenew: .on)
        _ = try ledger.ingest(renewalInfo: renewal, jwsRepresentation: Payloads.jws(renewal))

        let sources = try ledger.storage.write { try $0.holdOutgoingEventState(customerID: "ana").sources }
        #expect(Set(sources.transactions.map(\.id)) == ["y1", "u0", "u1", "f3", "n2", "album", "theme", "p0", "p1", "p2"],
                "the yearly plan ends after every monthly period, the upgraded one too; an upgraded plan that ends later cannot supersede; the refunded renewal ends last")
        #expect(sources.renewalInfos.map(\.originalTransactionID) == ["m0"])
        #expect(sources.transactions.map(\.purchaseDate) == sources.transactions.map(\.purchaseDate).sorted())

        for dayOfState: Int64 in [0, 20, 100, 200, 365, 372, 400, 500, 800] {
            let date = Payloads.date(dayOfState * Self.day)
            let whole = try ledger.customerState(customerID: "ana", at: date)
            let derived = try CustomerState(customerID: "ana", transactions: sources.transactions, renewalInfos: sources.renewalInfos,
                                            balances: sources.balances, catalog: nil, at: date)
            #expect(ReportedCustomerState(derived) == ReportedCustomerState(whole), "day \(dayOfState)")
            #expect(ReportedCustomerState.reviewDate(of: derived, after: date) == ReportedCustomerState.reviewDate(of: whole, after: date),
                    "day \(dayOfState)")
            #expect(derived.entitledProductIDs == whole.entitledProductIDs, "day \(dayOfState)")
        }
        let yearly = try ledger.customerState(customerID: "ana", at: Payloads.date(400 * Self.day))
        #expect(yearly.entitledProductIDs == ["album", "pass.yearly"], "the history is one that entitles")
        let upgraded = try ledger.customerState(customerID: "ana", at: Payloads.date(20 * Self.day))
        #expect(upgraded.isEntitled(to: "premium.monthly") && !upgraded.isEntitled(to: "plus.yearly"))
    }

    @Test("on PostgreSQL, recording a change's events costs one round trip more than the change: the outbox row is held in the read of the state's sources",
          .enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
    func recordingCostsOneRoundTrip() throws {
        let database = try PostgresTestDatabase()
        let storage = try PostgresLedgerStorage(url: database.url, connections: 1)
        let plain = Ledger(storage: storage)
        let recording = plain.recordingOutgoingEvents(OutgoingEventRecording(clock: { Payloads.date(400 * Self.day) }))
        /// The round trips of storing the next renewal of `customer`'s subscription into `ledger`.
        func roundTrips(renewal month: Int, of customer: String, into ledger: Ledger) throws -> Int {
            let payload = transaction("\(customer)-\(month)", original: "\(customer)-0", product: "pass.monthly",
                                      purchasedAt: Int64(month) * 30 * Self.day, expiresAt: Int64(month + 1) * 30 * Self.day)
            let before = storage.roundTrips
            _ = try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: customer, decide: Payloads.grants)
            return storage.roundTrips - before
        }
        for month in 0..<2 {
            _ = try roundTrips(renewal: month, of: "ana", into: plain)
            _ = try roundTrips(renewal: month, of: "bo", into: recording)
        }
        let without = try roundTrips(renewal: 2, of: "ana", into: plain)
        let with = try roundTrips(renewal: 2, of: "bo", into: recording)
        #expect(with == without + 1, "\(with) round trips with events, \(without) without")
    }
}
