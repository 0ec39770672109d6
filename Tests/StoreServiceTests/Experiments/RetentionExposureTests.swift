import AppStoreServerAPI
import Foundation
import StoreCore
import StorePolicy
import SQLiteLedger
import StoreService
import Testing

/// The cancel screen's message is a decision a customer sees: the variant it read is recorded
/// before Apple is answered.
@Suite struct RetentionExposureTests {
    static let policy = PolicySource(text: """
        local policy = { experiments = { farewell = { variants = { control = 1, warm = 1 } } } }
        function policy.retention_message(ctx, request)
            local variant = ctx.experiments.farewell
            if variant == nil then return nil end
            return { message = variant == "warm" and "6c1f0f3e-8f0a-4d8e-9a55-2f7b0c3d9e11" or "b7e2a4d1-3c5f-4e6a-8b9c-0d1e2f3a4b5c" }
        end
        return policy
        """, chunkName: "policy.lua")

    /// A variant whose answer is Apple's default message: nothing in the response shows it.
    static let silentPolicy = PolicySource(text: """
        local policy = { experiments = { farewell = { variants = { control = 1, warm = 1 } } } }
        function policy.retention_message(ctx, request)
            if ctx.experiments.farewell == "nobody" then return { message = "x" } end
            return nil
        end
        return policy
        """, chunkName: "policy.lua")

    @Test(arguments: [(policy, true), (silentPolicy, false)])
    func theCancelScreensVariantIsRecordedOnceForTheSubscriber(policy: PolicySource, answersAMessage: Bool) throws {
        try RouterTestService.test(configure: { $0.policy = policy }) { service in
            let pass = try service.sign(BackyardBirdsPayloads.pass(original: "8100", period: 0, of: 1))
            #expect(try service.respond("POST", "/v1/transactions", json: ["customer": "fay", "signed_transaction": pass]).status == 200)
            for _ in 0..<2 {
                let request = DecodedRealtimeRequestBody(originalTransactionId: "8100", productId: "pass.premium", userLocale: "en_US",
                                                         requestIdentifier: UUID().uuidString.lowercased(), signedDate: Date(), environment: .sandbox)
                let body = #"{"signedPayload": "\#(try service.authority.sign(request))"}"#
                let response = service.respond("POST", "/v1/apple/retention", key: nil, body: body)
                #expect(response.status == 200, "\(response.bodyText)")
                #expect(((response.object["message"] as? [String: Any])?["messageIdentifier"] != nil) == answersAMessage, "\(response.bodyText)")
            }
            let ledger = try Ledger(path: service.folder.appending(path: "ledger.sqlite").path)
            let exposures = try ledger.exposures(customerID: "fay")
            #expect(exposures.count == 1 && exposures.first?.hook == "retention_message" && exposures.first?.experiment == "farewell")
        }
    }
}
