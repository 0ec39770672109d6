import Foundation
import StoreCore
import StoreTesting

/// Signed data for the fuzzers: verifiers that trust a signing authority made for the run,
/// and payloads that authority signs, as the local store signs them.
final class SignedDataFuzzer {
    static let bundleId = "com.example.fuzzing"
    private let authority: SigningAuthority
    private let verifiers: [SignedDataVerifier]

    init() throws {
        authority = try SigningAuthority.generate(name: "StoreRules Fuzzing")
        verifiers = [
            try SignedDataVerifier(rootCertificates: [authority.rootCertificate], bundleId: Self.bundleId,
                                   appAppleId: 1, environment: .sandbox),
            try SignedDataVerifier(rootCertificates: [authority.rootCertificate], bundleId: Self.bundleId,
                                   appAppleId: 1, environment: .xcode),
            try SignedDataVerifier(rootCertificates: [], bundleId: Self.bundleId, environment: .localTesting),
        ]
    }

    /// The root the verifiers trust.
    var rootCertificate: X509Certificate { authority.rootCertificate }

    /// Verifies the input as every kind of signed data, with every verifier.
    func verify(_ input: Data) {
        let text = String(decoding: input, as: UTF8.self)
        for verifier in verifiers {
            _ = try? verifier.verifyAndDecodeTransaction(text)
            _ = try? verifier.verifyAndDecodeRenewalInfo(text)
            _ = try? verifier.verifyAndDecodeNotification(text)
            _ = try? verifier.verifyAndDecodeRealtimeRequest(text)
        }
    }

    /// Decodes the input as each payload type.
    static func decodePayloads(_ input: Data) {
        _ = try? SignedPayloadJSON.decode(JWSTransactionDecodedPayload.self, from: input)
        _ = try? SignedPayloadJSON.decode(JWSRenewalInfoDecodedPayload.self, from: input)
        _ = try? SignedPayloadJSON.decode(ResponseBodyV2DecodedPayload.self, from: input)
        _ = try? SignedPayloadJSON.makeDecoder().decode(JWSTransactionDecodedPayload.self, from: input)
    }

    /// A transaction, a renewal and a notification carrying both, as the local store signs them.
    func signedSeeds() throws -> [Data] {
        let now = Date()
        let transaction = JWSTransactionDecodedPayload(
            originalTransactionId: "2000000000000001", transactionId: "2000000000000002",
            webOrderLineItemId: "2000000000000003", bundleId: Self.bundleId, productId: "pass.individual",
            subscriptionGroupIdentifier: "6F3A93AB", purchaseDate: now, originalPurchaseDate: now,
            expiresDate: now.addingTimeInterval(30 * 86_400), quantity: 1, type: .autoRenewableSubscription,
            appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", inAppOwnershipType: .purchased,
            signedDate: now, environment: .sandbox, storefront: "USA", storefrontId: "143441",
            transactionReason: .purchase, currency: "USD", price: 4990)
        let consumable = JWSTransactionDecodedPayload(
            originalTransactionId: "2000000000000004", transactionId: "2000000000000004", bundleId: Self.bundleId,
            productId: "pellet.box", purchaseDate: now, originalPurchaseDate: now, quantity: 3, type: .consumable,
            inAppOwnershipType: .purchased, signedDate: now, environment: .sandbox, storefront: "USA",
            storefrontId: "143441", transactionReason: .purchase, currency: "USD", price: 990)
        let renewal = JWSRenewalInfoDecodedPayload(
            originalTransactionId: "2000000000000001", autoRenewProductId: "pass.family", productId: "pass.individual",
            autoRenewStatus: .on, isInBillingRetryPeriod: false, signedDate: now, environment: .sandbox,
            recentSubscriptionStartDate: now, renewalDate: now.addingTimeInterval(30 * 86_400))
        let signedTransaction = try authority.sign(transaction)
        let signedRenewal = try authority.sign(renewal)
        let notification = ResponseBodyV2DecodedPayload(
            notificationType: .subscribed, subtype: .initialBuy, notificationUUID: UUID().uuidString.lowercased(),
            data: NotificationData(environment: .sandbox, appAppleId: 1, bundleId: Self.bundleId, bundleVersion: "1.0",
                                   signedTransactionInfo: signedTransaction, signedRenewalInfo: signedRenewal, status: .active),
            version: "2.0", signedDate: now)
        return [signedTransaction, try authority.sign(consumable), signedRenewal, try authority.sign(notification)]
            .map { Data($0.utf8) }
    }

    /// The JSON inside the signed seeds.
    func payloadSeeds() throws -> [Data] {
        try signedSeeds().compactMap { jws in
            let parts = String(decoding: jws, as: UTF8.self).split(separator: ".")
            return parts.count == 3 ? Data(base64URLEncoded: parts[1]) : nil
        }
    }
}

extension Data {
    /// Decodes base64url without padding, as JWS segments are written.
    init?(base64URLEncoded text: Substring) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
