import Foundation
import StoreCore
import Testing

/// `storerules appstore consumption` holds its answer to the rules a policy's `consumption` hook
/// is held to — ``ConsumptionAnswer``'s own validation, for the transaction's type — and refuses
/// what the hook would be refused, in the same words, sending nothing.
@Suite struct AppStoreConsumptionRefusalTests {
    /// The words ``ConsumptionAnswer`` refuses a delivered purchase's answer with, or nil when it takes it.
    static func refusal(consumed: Int? = nil, preference: ConsumptionAnswer.RefundPreference? = nil, autoRenewable: Bool = false) -> String? {
        do {
            _ = try ConsumptionAnswer(customerConsented: true, deliveryStatus: .delivered, consumptionPercentage: consumed,
                                      refundPreference: preference, sampleContentProvided: false, autoRenewable: autoRenewable)
            return nil
        } catch {
            return error.description
        }
    }

    /// The consumption information the local store received about `transactionID`.
    static func received(_ store: StoreAPIProcess, _ transactionID: String) throws -> [[String: Any]] {
        try store.storeJSON(["consumption", transactionID])["consumption"] as? [[String: Any]] ?? []
    }

    @Test("a percentage for an auto-renewable subscription is refused as the hook's answer would be, and nothing is sent")
    func percentageOfASubscriptionIsRefused() throws {
        let store = try StoreAPIProcess()
        let pass = try store.buy("pass.premium")
        try store.storeJSON(["refund-request", pass, "--reason", "unintended-purchase"])
        try store.start()
        let expected = try #require(Self.refusal(consumed: 50_000, autoRenewable: true))
        let result = try CommandRunner.run(["appstore", "consumption", pass, "--delivery-status", "delivered", "--consumed", "50000"]
                                           + AppStoreCommandTests.options(store))
        #expect(result.status == 64, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardError.hasPrefix("storerules appstore: \(expected)\n"), "\(result.standardError)")
        #expect(try Self.received(store, pass).isEmpty)
    }

    @Test("a prorated refund without a percentage, or a percentage out of range, is refused in the validation's words")
    func brokenAnswersAreRefused() throws {
        let store = try StoreAPIProcess()
        let box = try store.buy("pellet.box")
        try store.storeJSON(["refund-request", box, "--reason", "unintended-purchase"])
        try store.start()
        let prorated = try #require(Self.refusal(preference: .grantProrated))
        let outside = try #require(Self.refusal(consumed: 150_000))
        for (options, words) in [(["--preference", "grant_prorated"], prorated), (["--consumed", "150000"], outside)] {
            let result = try CommandRunner.run(["appstore", "consumption", box, "--delivery-status", "delivered"] + options
                                               + AppStoreCommandTests.options(store))
            #expect(result.status == 64, "\(options): \(result.standardError)")
            #expect(result.standardError.hasPrefix("storerules appstore: \(words)\n"), "\(options): \(result.standardError)")
        }
        #expect(try Self.received(store, box).isEmpty)
        let fine = try CommandRunner.run(["appstore", "consumption", box, "--delivery-status", "delivered", "--consumed", "40000",
                                          "--preference", "grant_prorated"] + AppStoreCommandTests.options(store))
        #expect(fine.status == 0, "\(fine.standardError)")
        #expect(try Self.received(store, box).count == 1)
    }
}
