import Foundation
import Testing
@testable import StoreCore

@Suite struct CustomerStatePaidMonthsTests {
    /// 2025-01-31T00:00:00Z, a month end, so calendar months show.
    private static let start = Date(millisecondsSince1970: 1_738_281_600_000)

    private func date(_ iso8601: String) -> Date { try! Date(iso8601, strategy: .iso8601) }

    private func period(_ id: String, original: String = "1", from: String, to: String, price: Int64? = 9990,
                        revoked: String? = nil, group: String = "G1", shared: Bool = false) -> StoredTransaction {
        StoredTransaction(
            id: id, originalID: original, customerID: "ana", productID: "pass", productType: .autoRenewableSubscription,
            subscriptionGroupID: group, purchaseDate: date(from), expirationDate: date(to),
            revocationDate: revoked.map(date), ownershipType: shared ? .familyShared : .purchased, price: price,
            environment: .sandbox, signedDate: date(from), jwsRepresentation: "jws-\(id)", grantState: .granted)
    }

    private func state(_ transactions: [StoredTransaction], at now: String) throws -> CustomerState {
        try CustomerState(customerID: "ana", transactions: transactions, renewalInfos: [], balances: [:], catalog: nil,
                          at: date(now))
    }

    @Test func paidPeriodsCountInCalendarMonthsAndAFreeTrialDoesNot() throws {
        let state = try state([
            period("1", from: "2025-01-01T00:00:00Z", to: "2025-01-31T00:00:00Z", price: 0),
            period("2", from: "2025-01-31T00:00:00Z", to: "2025-02-28T00:00:00Z"),
            period("3", from: "2025-02-28T00:00:00Z", to: "2025-03-28T00:00:00Z"),
            period("4", from: "2025-03-28T00:00:00Z", to: "2025-04-28T00:00:00Z", price: nil),
        ], at: "2025-06-01T00:00:00Z")
        #expect(state.paidMonths(inGroup: "G1") == 3)
        #expect(state.paidMonths(inGroup: "OTHER") == 0)
    }

    @Test func aPeriodStopsAtARefundOrAnUpgradeAndCountsWholeOnceBought() throws {
        let state = try state([
            period("1", from: "2025-01-01T00:00:00Z", to: "2025-02-01T00:00:00Z", revoked: "2025-01-16T00:00:00Z"),
            period("2", original: "2", from: "2025-03-01T00:00:00Z", to: "2025-04-01T00:00:00Z"),
            period("3", original: "2", from: "2025-03-16T00:00:00Z", to: "2025-04-16T00:00:00Z"),
            period("4", original: "9", from: "2025-03-01T00:00:00Z", to: "2025-04-01T00:00:00Z", shared: true),
        ], at: "2025-04-01T00:00:00Z")
        // 15 days before the refund, 15 days before the upgrade, the upgraded plan's whole month.
        #expect(abs(state.paidMonths(inGroup: "G1") - (1 + (15.0 + 15.0) / 30)) < 1e-9)
    }
}
