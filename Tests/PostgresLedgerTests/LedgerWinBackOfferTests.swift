import Foundation
import PostgresLedger
@testable import StoreCore
import SQLiteLedger
import Testing

@Suite struct LedgerWinBackOfferTests {
    typealias Payloads = LedgerPayloads

    private static func lapsed(_ originalID: String = "9100", signedAt: Int64, offers: [String]?) -> JWSRenewalInfoDecodedPayload {
        var payload = Payloads.renewalInfo(originalID: originalID, productID: "pass.premium", signedAt: signedAt, autoRenew: .off)
        payload.eligibleWinBackOfferIds = offers
        return payload
    }

    @Test("renewal info keeps its eligible win-back offers, and a newer one without any clears them",
          arguments: LedgerBackend.available)
    func renewalInfoKeepsEligibleOffers(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let first = Self.lapsed(signedAt: 10, offers: ["premium.back", "premium.half"])
        _ = try ledger.ingest(renewalInfo: first, jwsRepresentation: Payloads.jws(first))
        #expect(try ledger.renewalInfo(originalTransactionID: "9100")?.eligibleWinBackOfferIDs == ["premium.back", "premium.half"])

        let redeemed = Self.lapsed(signedAt: 20, offers: nil)
        _ = try ledger.ingest(renewalInfo: redeemed, jwsRepresentation: Payloads.jws(redeemed))
        #expect(try ledger.renewalInfo(originalTransactionID: "9100")?.eligibleWinBackOfferIDs == [])
    }

    @Test("a ledger made before the column gains it, and keeps its renewal infos", arguments: LedgerBackend.available)
    func migrationAddsTheColumn(on backend: LedgerBackend) throws {
        let location = try backend.freshLocation()
        var ledger = try location.open()
        let before = Payloads.renewalInfo(originalID: "9200", productID: "pass.premium", signedAt: 10, autoRenew: .on)
        _ = try ledger.ingest(renewalInfo: before, jwsRepresentation: Payloads.jws(before))
        try location.takeBack(toBefore: "keep eligible win-back offers of renewal info", undoing: [
            "DROP TABLE outgoing_event", "DROP TABLE outgoing_event_state",
            "ALTER TABLE renewal_info DROP COLUMN eligible_win_back_offer_ids", "DROP TABLE experiment_exposure",
            "DROP TABLE experiment_phase",
        ])
        ledger = try location.open()
        #expect(try ledger.renewalInfo(originalTransactionID: "9200")?.autoRenewStatus == .on)
        #expect(try ledger.renewalInfo(originalTransactionID: "9200")?.eligibleWinBackOfferIDs == [])
        let after = Self.lapsed("9200", signedAt: 30, offers: ["premium.back"])
        _ = try ledger.ingest(renewalInfo: after, jwsRepresentation: Payloads.jws(after))
        #expect(try ledger.renewalInfo(originalTransactionID: "9200")?.eligibleWinBackOfferIDs == ["premium.back"])
    }
}
