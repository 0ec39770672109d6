import Foundation
import StoreCore
import StoreTesting

/// The signed-data section of `storerules bench`: signed transactions verified per second
/// through `SignedDataVerifier` against OpenSSL's own ECDSA P-256 verify rate.
public enum SignedDataBench {
    /// Signed transactions verified per round: distinct payloads from one chain, so every
    /// verification after the first finds the chain validated already.
    public static let transactionCount = 500

    /// The bundle identifier of the benchmark's signed transactions.
    static let bundleId = "com.example.bench"

    /// Measures, in interleaved rounds, signed transactions verified per second through
    /// `SignedDataVerifier` with its chain cache warm, and OpenSSL's own ECDSA P-256 verify
    /// rate for the same signatures over the same messages; each figure is the best of
    /// ``BenchRounds/count`` rounds.
    ///
    /// - Throws: ``BenchFailure`` when the transactions cannot be signed or do not verify.
    public static func measure() throws -> SignedDataBenchFigures {
        let authority: SigningAuthority
        let verifier: SignedDataVerifier
        let signed: [String]
        do {
            authority = try SigningAuthority.generate(name: "StoreRules Bench")
            verifier = try SignedDataVerifier(
                rootCertificates: [authority.rootCertificate], bundleId: bundleId, environment: .sandbox)
            signed = try (0..<transactionCount).map { try authority.sign(transaction($0)) }
        } catch {
            throw BenchFailure("preparing signed transactions: \(error)")
        }
        for jws in signed {
            do {
                _ = try verifier.verifyAndDecodeTransaction(jws)
            } catch {
                throw BenchFailure("a benchmark transaction does not verify: \(error)")
            }
        }
        let openSSL = try OpenSSLVerification(leaf: authority.leafCertificate, signedData: signed)

        var verifications = 0.0
        var openSSLVerifies = 0.0
        for _ in 0..<BenchRounds.count {
            verifications = max(verifications, try operationsPerSecond(count: signed.count) {
                for jws in signed {
                    keep(try verifier.verifyAndDecodeTransaction(jws))
                }
            })
            openSSLVerifies = max(openSSLVerifies, try operationsPerSecond(count: openSSL.count) { try openSSL.verifyAll() })
        }
        return SignedDataBenchFigures(
            verificationsPerSecond: verifications, openSSLVerifiesPerSecond: openSSLVerifies,
            verificationToOpenSSLRatio: verifications / openSSLVerifies)
    }

    /// A distinct auto-renewable subscription purchase, signed in 2025.
    static func transaction(_ index: Int) -> JWSTransactionDecodedPayload {
        let signedDate = Date(millisecondsSince1970: 1_750_000_000_000 + Int64(index) * 1000)
        let identifier = String(2_000_000_100_000_000 + index)
        let productIDs = DecisionBench.productIDs
        return JWSTransactionDecodedPayload(
            originalTransactionId: identifier, transactionId: identifier, webOrderLineItemId: identifier,
            bundleId: bundleId, productId: productIDs[index % productIDs.count],
            subscriptionGroupIdentifier: "BENCH", purchaseDate: signedDate, originalPurchaseDate: signedDate,
            expiresDate: signedDate.addingTimeInterval(30 * 24 * 3600), quantity: 1,
            type: .autoRenewableSubscription, appAccountToken: UUID().uuidString.lowercased(),
            inAppOwnershipType: .purchased, signedDate: signedDate, environment: .sandbox,
            storefront: "USA", storefrontId: "143441", transactionReason: .purchase, currency: "USD", price: 4990)
    }

    /// Operations per second of `body`, which performs `count` of them.
    static func operationsPerSecond(count: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        try body()
        let elapsed = clock.now - started
        return Double(count) / elapsed.seconds
    }
}
