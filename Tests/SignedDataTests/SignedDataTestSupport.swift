import Foundation
@testable import SignedData
@testable import StoreTesting

/// Chains, payloads and hand-made JWS for the signed-data tests.
enum SignedDataTestSupport {
    static let bundleId = "com.example.backyardbirds"
    static let appAppleId: Int64 = 1_234_567_890
    /// 2025-06-15T15:06:40Z.
    static let signedDate = Date(millisecondsSince1970: 1_750_000_000_000)

    /// One authority for the whole test run: generating keys is cheap, but not free.
    static let authority: SigningAuthority = {
        do {
            return try SigningAuthority.generate()
        } catch {
            fatalError("cannot generate the test signing authority: \(error)")
        }
    }()

    static func transaction(
        bundleId: String = bundleId,
        environment: AppStoreEnvironment = .sandbox,
        signedDate: Date = signedDate,
        price: Int64 = 4990
    ) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            originalTransactionId: "2000000111111111", transactionId: "2000000111111111",
            webOrderLineItemId: "2000000022222222", bundleId: bundleId, productId: "pass.premium",
            subscriptionGroupIdentifier: "6F3A93AB",
            purchaseDate: signedDate, originalPurchaseDate: signedDate,
            expiresDate: signedDate.addingTimeInterval(30 * 24 * 3600), quantity: 1,
            type: .autoRenewableSubscription, appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138",
            inAppOwnershipType: .purchased, signedDate: signedDate, environment: environment,
            storefront: "USA", storefrontId: "143441", transactionReason: .purchase,
            currency: "USD", price: price)
    }

    static func renewalInfo(environment: AppStoreEnvironment = .sandbox, signedDate: Date = signedDate) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            originalTransactionId: "2000000111111111", autoRenewProductId: "pass.premium",
            productId: "pass.premium", autoRenewStatus: .on, isInBillingRetryPeriod: false,
            signedDate: signedDate, environment: environment,
            recentSubscriptionStartDate: signedDate, renewalDate: signedDate.addingTimeInterval(30 * 24 * 3600),
            currency: "USD", renewalPrice: 4990)
    }

    static func notification(
        bundleId: String? = bundleId,
        appAppleId: Int64? = appAppleId,
        environment: AppStoreEnvironment? = .sandbox,
        signedDate: Date = signedDate
    ) -> ResponseBodyV2DecodedPayload {
        ResponseBodyV2DecodedPayload(
            notificationType: .subscribed, subtype: .initialBuy,
            notificationUUID: "002e14d5-51f5-4503-b5a8-c3a1af68eb20",
            data: NotificationData(
                environment: environment, appAppleId: appAppleId, bundleId: bundleId, bundleVersion: "1.0",
                signedTransactionInfo: "not-verified-here", status: .active),
            version: "2.0", signedDate: signedDate)
    }

    /// A chain built like ``SigningAuthority/generate(name:validity:)``'s, with one deviation
    /// at a time.
    static func chain(
        name: String = "Deviant",
        leafMarker: Bool = true,
        intermediateMarker: Bool = true,
        leafCurve: ECKey.Curve = .p256,
        validity: DateInterval = SigningAuthority.standardValidity(around: Date())
    ) throws -> SigningAuthority {
        let rootKey = try ECKey.generate(on: .p256)
        let root = try CertificateIssuer.issue(
            .root, commonName: "\(name) Root CA", subjectKey: rootKey, issuer: nil,
            validity: validity, markerExtensionOID: nil)
        let intermediateKey = try ECKey.generate(on: .p256)
        let intermediate = try CertificateIssuer.issue(
            .intermediate, commonName: "\(name) Intermediate CA", subjectKey: intermediateKey,
            issuer: .init(certificate: root, key: rootKey), validity: validity,
            markerExtensionOID: intermediateMarker ? CertificateRole.intermediate.markerExtensionOID : nil)
        let leafKey = try ECKey.generate(on: leafCurve)
        let leaf = try CertificateIssuer.issue(
            .leaf, commonName: "\(name) Store Signing", subjectKey: leafKey,
            issuer: .init(certificate: intermediate, key: intermediateKey), validity: validity,
            markerExtensionOID: leafMarker ? CertificateRole.leaf.markerExtensionOID : nil)
        return SigningAuthority(
            rootCertificate: root, rootKey: rootKey,
            intermediateCertificate: intermediate, intermediateKey: intermediateKey,
            leafCertificate: leaf, leafKey: leafKey)
    }

    /// The base64 `x5c` entries of a chain.
    static func x5c(_ certificates: [X509Certificate]) -> [String] {
        certificates.map { $0.derRepresentation.base64EncodedString() }
    }

    /// Signs any payload under any header with `key`, bypassing the authority's own checks.
    static func sign<Payload: Encodable>(
        _ payload: Payload,
        header: JWSDecodedHeader,
        key: ECKey = authority.leafKey
    ) throws -> String {
        let json = try SignedPayloadJSON.makeEncoder().encode(payload)
        return try CompactJWS.signES256(payload: json, header: header, key: key).compactSerialization
    }

    /// A JWS assembled from raw parts, each base64url-encoded here.
    static func assemble(header: String, payload: String, signature: Data = Data(count: 64)) -> String {
        [Base64URL.encode(Data(header.utf8)), Base64URL.encode(Data(payload.utf8)), Base64URL.encode(signature)]
            .joined(separator: ".")
    }

    /// A verifier trusting the shared authority's root.
    static func verifier(
        environment: AppStoreEnvironment = .sandbox,
        roots: [X509Certificate] = [authority.rootCertificate],
        appAppleId: Int64? = appAppleId
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(rootCertificates: roots, bundleId: bundleId, appAppleId: appAppleId, environment: environment)
    }

    /// The payload of a JWS with one byte changed, keeping the original signature.
    static func tampered(_ jws: String) -> String {
        var parts = jws.split(separator: ".").map(String.init)
        var payload = Base64URL.decode(Substring(parts[1]))!
        let json = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "\"price\":4990", with: "\"price\":1")
        precondition(json != String(decoding: payload, as: UTF8.self), "the payload has no price to tamper with")
        payload = Data(json.utf8)
        parts[1] = Base64URL.encode(payload)
        return parts.joined(separator: ".")
    }
}
