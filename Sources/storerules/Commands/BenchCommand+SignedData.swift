import COpenSSL
import Foundation
import StoreCore
import StoreTesting

extension BenchCommand {
    /// Signed transactions verified per round: distinct payloads from one chain, so every
    /// verification after the first finds the chain validated already.
    static let signedTransactionCount = 500

    /// The bundle identifier of the benchmark's signed transactions.
    static let benchBundleId = "com.example.bench"

    /// Measures, in interleaved rounds, signed transactions verified per second through
    /// `SignedDataVerifier` with its chain cache warm, OpenSSL's own ECDSA P-256 verify rate
    /// for the same signatures over the same messages, and records the best of each in `figures`.
    static func measureSignedData(into figures: inout Figures) throws {
        let authority: SigningAuthority
        let verifier: SignedDataVerifier
        let signed: [String]
        do {
            authority = try SigningAuthority.generate(name: "StoreRules Bench")
            verifier = try SignedDataVerifier(
                rootCertificates: [authority.rootCertificate], bundleId: benchBundleId, environment: .sandbox)
            signed = try (0..<signedTransactionCount).map { try authority.sign(benchTransaction($0)) }
        } catch {
            throw CommandFailure("preparing signed transactions: \(error)")
        }
        for jws in signed {
            do {
                _ = try verifier.verifyAndDecodeTransaction(jws)
            } catch {
                throw CommandFailure("a benchmark transaction does not verify: \(error)")
            }
        }
        let openSSL = try OpenSSLVerification(leaf: authority.leafCertificate, signedData: signed)

        var verifications = 0.0
        var openSSLVerifies = 0.0
        for _ in 0..<rounds {
            verifications = max(verifications, try operationsPerSecond(count: signed.count) {
                for jws in signed {
                    keep(try verifier.verifyAndDecodeTransaction(jws))
                }
            })
            openSSLVerifies = max(openSSLVerifies, try operationsPerSecond(count: openSSL.count) { try openSSL.verifyAll() })
        }
        figures.verificationsPerSecond = verifications
        figures.openSSLVerifiesPerSecond = openSSLVerifies
        figures.verificationToOpenSSLRatio = verifications / openSSLVerifies
    }

    /// A distinct auto-renewable subscription purchase, signed in 2025.
    static func benchTransaction(_ index: Int) -> JWSTransactionDecodedPayload {
        let signedDate = Date(millisecondsSince1970: 1_750_000_000_000 + Int64(index) * 1000)
        let identifier = String(2_000_000_100_000_000 + index)
        return JWSTransactionDecodedPayload(
            originalTransactionId: identifier, transactionId: identifier, webOrderLineItemId: identifier,
            bundleId: benchBundleId, productId: productIDs[index % productIDs.count],
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

    /// The signed-data lines of the table.
    static func signedDataTable(_ figures: Figures) -> String {
        func rate(_ value: Double) -> String { String(format: "%10.0f /s", value) }
        return """
        Signed data (best of \(rounds) rounds)
          verifications, chain cached      \(rate(figures.verificationsPerSecond)) (\(signedTransactionCount) transactions)
          OpenSSL ECDSA P-256 verify       \(rate(figures.openSSLVerifiesPerSecond))
          verifier / OpenSSL               \(String(format: "%8.2f×", figures.verificationToOpenSSLRatio))
        """
    }
}

/// OpenSSL verifying ES256 signatures on its own: `EVP_DigestVerify` with SHA-256 and a public
/// key parsed once, over the signing input of each JWS and its signature converted to DER.
private final class OpenSSLVerification {
    private let key: OpaquePointer
    private let messages: [[UInt8]]
    private let derSignatures: [[UInt8]]

    /// The number of signatures ``verifyAll()`` checks.
    var count: Int { messages.count }

    /// Reads the public key of `leaf` and the signing input and signature of each compact JWS.
    init(leaf: X509Certificate, signedData: [String]) throws {
        let certificate: OpaquePointer? = leaf.derRepresentation.withUnsafeBytes { buffer in
            var cursor = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let certificate else { throw CommandFailure("OpenSSL could not read the bench leaf certificate") }
        defer { X509_free(certificate) }
        guard let key = X509_get_pubkey(certificate) else { throw CommandFailure("OpenSSL could not read the bench leaf key") }
        self.key = key
        var messages: [[UInt8]] = []
        var derSignatures: [[UInt8]] = []
        for jws in signedData {
            guard let signatureStart = jws.lastIndex(of: "."),
                  let raw = Data(base64Encoded: Self.standardBase64(jws[jws.index(after: signatureStart)...])),
                  raw.count == 64,
                  let der = Self.der(rawSignature: [UInt8](raw))
            else {
                EVP_PKEY_free(key)
                throw CommandFailure("a bench JWS has no raw ES256 signature")
            }
            messages.append(Array(jws.utf8[..<signatureStart]))
            derSignatures.append(der)
        }
        self.messages = messages
        self.derSignatures = derSignatures
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Verifies every signature; throws when one fails, so a broken baseline cannot pass for
    /// a fast one.
    func verifyAll() throws {
        for (message, signature) in zip(messages, derSignatures) {
            guard let context = EVP_MD_CTX_new() else { throw CommandFailure("OpenSSL could not allocate a digest context") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1,
                  EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
            else { throw CommandFailure("OpenSSL rejected a bench signature") }
        }
    }

    /// Base64url without padding turned into standard base64 with padding.
    private static func standardBase64(_ text: Substring) -> String {
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return standard + String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
    }

    /// The DER `ECDSA-Sig-Value` of a raw 64-byte `r‖s` signature.
    private static func der(rawSignature: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard ECDSA_SIG_set0(signature, BN_bin2bn(rawSignature, 32, nil), BN_bin2bn(Array(rawSignature[32...]), 32, nil)) == 1 else {
            return nil
        }
        var der = [UInt8](repeating: 0, count: Int(i2d_ECDSA_SIG(signature, nil)))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_ECDSA_SIG(signature, &cursor)
        }
        return der
    }
}
