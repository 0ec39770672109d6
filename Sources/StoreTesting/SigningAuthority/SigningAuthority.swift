import Foundation
import StoreCore

/// A local stand-in for the App Store's signing chain: a root CA, an intermediate CA carrying
/// Apple's intermediate marker extension and a leaf carrying Apple's leaf marker extension, all
/// EC P-256, generated with OpenSSL. It signs payloads into compact JWS with the full `x5c`
/// chain, which both ``SignedDataVerifier`` and Apple's App Store Server Library accept when
/// given its root.
///
/// ```swift
/// let authority = try SigningAuthority.loadOrCreate(in: storeDirectory.appending(path: "signing"))
/// let jws = try authority.sign(transaction)
/// let verifier = try SignedDataVerifier(rootCertificates: [authority.rootCertificate],
///                                       bundleId: "com.example", environment: .sandbox)
/// ```
public struct SigningAuthority: Sendable {
    /// The self-signed root; give it to verifiers as their trusted root.
    public let rootCertificate: X509Certificate
    /// The intermediate CA, issued by the root.
    public let intermediateCertificate: X509Certificate
    /// The leaf, issued by the intermediate; its key signs payloads.
    public let leafCertificate: X509Certificate
    let rootKey: ECKey
    let intermediateKey: ECKey
    let leafKey: ECKey

    /// The chain as `x5c` carries it: leaf, intermediate, root.
    public var certificateChain: [X509Certificate] { [leafCertificate, intermediateCertificate, rootCertificate] }

    /// The dates at which every certificate of the chain is valid: a payload's `signedDate`
    /// must be at or after `start` and before `end`.
    public var validity: DateInterval {
        let chain = certificateChain
        return DateInterval(
            start: chain.map(\.notValidBefore).max()!,
            end: chain.map(\.notValidAfter).min()!)
    }

    /// The default validity of a new chain: from ten years before `date` to twenty years after,
    /// so payloads dated in the past (replays, simulated clocks) verify too.
    public static func standardValidity(around date: Date) -> DateInterval {
        let year: TimeInterval = 365.25 * 24 * 60 * 60
        let start = Date(timeIntervalSince1970: (date.timeIntervalSince1970 - 10 * year).rounded(.down))
        return DateInterval(start: start, duration: 30 * year)
    }

    /// Wraps existing certificates and keys without checking them.
    init(
        rootCertificate: X509Certificate, rootKey: ECKey,
        intermediateCertificate: X509Certificate, intermediateKey: ECKey,
        leafCertificate: X509Certificate, leafKey: ECKey
    ) {
        self.rootCertificate = rootCertificate
        self.rootKey = rootKey
        self.intermediateCertificate = intermediateCertificate
        self.intermediateKey = intermediateKey
        self.leafCertificate = leafCertificate
        self.leafKey = leafKey
    }

    /// Generates a new chain in memory.
    ///
    /// - Parameters:
    ///   - name: The start of each certificate's common name (`<name> Root CA`, …).
    ///   - validity: The validity period of all three certificates.
    public static func generate(
        name: String = "StoreRules Local",
        validity: DateInterval = standardValidity(around: Date())
    ) throws(SigningAuthorityError) -> SigningAuthority {
        do {
            let rootKey = try ECKey.generate(on: .p256)
            let root = try CertificateIssuer.issue(
                .root, commonName: "\(name) Root CA", subjectKey: rootKey, issuer: nil,
                validity: validity, markerExtensionOID: nil)
            let intermediateKey = try ECKey.generate(on: .p256)
            let intermediate = try CertificateIssuer.issue(
                .intermediate, commonName: "\(name) Intermediate CA", subjectKey: intermediateKey,
                issuer: .init(certificate: root, key: rootKey),
                validity: validity, markerExtensionOID: CertificateRole.intermediate.markerExtensionOID)
            let leafKey = try ECKey.generate(on: .p256)
            let leaf = try CertificateIssuer.issue(
                .leaf, commonName: "\(name) Store Signing", subjectKey: leafKey,
                issuer: .init(certificate: intermediate, key: intermediateKey),
                validity: validity, markerExtensionOID: CertificateRole.leaf.markerExtensionOID)
            return SigningAuthority(
                rootCertificate: root, rootKey: rootKey,
                intermediateCertificate: intermediate, intermediateKey: intermediateKey,
                leafCertificate: leaf, leafKey: leafKey)
        } catch {
            throw .generationFailed(error.description)
        }
    }

    /// Signs `payload` as the App Store does: a compact JWS with header
    /// `{"alg":"ES256","x5c":[leaf, intermediate, root]}` and a raw `r‖s` signature.
    ///
    /// The payload is encoded with ``SignedPayloadJSON`` (dates as whole milliseconds). Its
    /// `signedDate`, when present, must fall within ``validity``.
    public func sign<Payload: SignedPayload>(_ payload: Payload) throws(SigningAuthorityError) -> String {
        let validity = validity
        if let signedDate = payload.signedDate, signedDate < validity.start || signedDate >= validity.end {
            throw .signedDateOutsideValidity(signedDate: signedDate, validity: validity)
        }
        let json: Data
        do {
            json = try SignedPayloadJSON.makeEncoder().encode(payload)
        } catch {
            throw .encodingFailed(DecodingFailure.summary(of: error))
        }
        let header = JWSDecodedHeader(alg: "ES256", x5c: certificateChain.map { $0.derRepresentation.base64EncodedString() })
        do {
            return try CompactJWS.signES256(payload: json, header: header, key: leafKey).compactSerialization
        } catch {
            throw .signingFailed(error.description)
        }
    }
}
