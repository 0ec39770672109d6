import Foundation
import Synchronization

/// Verifies and decodes data signed by the App Store — transactions, renewal info and App
/// Store Server Notifications V2 — as Apple's App Store Server Library does, with OpenSSL.
///
/// Every verification runs the checks of Apple's library, in its order:
///
/// 1. the text is a compact JWS and its payload decodes (``VerificationError/malformedJWS(_:)``,
///    ``VerificationError/malformedPayload(_:)``);
/// 2. the header has an `x5c` chain (``VerificationError/missingCertificateChain``);
/// 3. `alg` is exactly `ES256` (``VerificationError/unsupportedAlgorithm(_:)``);
/// 4. `x5c` holds exactly three certificates (``VerificationError/invalidChainLength(_:)``),
///    and the first two are base64 DER certificates (``VerificationError/invalidCertificate(index:reason:)``);
/// 5. the leaf and intermediate lead to a configured trusted root — the root in the header is
///    never read — under OpenSSL's strict X.509 checks (``VerificationError/untrustedChain(_:)``),
///    each certificate valid at the payload's `signedDate`, or now when it has none
///    (``VerificationError/certificateNotValidAtSignedDate(subject:date:)``);
/// 6. the leaf carries `1.2.840.113635.100.6.11.1` and the intermediate `1.2.840.113635.100.6.2.1`
///    (``VerificationError/missingMarkerExtension(_:)``), and the leaf key is P-256
///    (``VerificationError/unsupportedLeafKey(_:)``);
/// 7. the signature is the leaf key's (``VerificationError/invalidSignature``);
/// 8. the bundle identifier, the app Apple ID (notifications, in production) and the
///    environment match the configuration, where Apple's library checks them.
///
/// Checks are offline: there is no network, so no OCSP, and validity is judged at `signedDate`,
/// as Apple's library does with online checks off.
///
/// For the Xcode and LocalTesting environments, Apple's library skips steps 2–7. StoreRules is
/// stricter there:
/// - data whose `x5c` holds exactly one certificate — what StoreKit Testing in Xcode signs
///   with, a self-signed certificate of its own — is accepted in those two environments only,
///   after `alg` is checked and the signature verified with that certificate's key (its
///   validity dates are not judged, as Xcode's certificate has long expired in saved data);
/// - with no trusted root configured, other data is decoded without signature checks;
/// - given roots, a three-certificate chain is verified at every step, since the local store
///   signs with a real chain.
/// In Sandbox and Production a single certificate is refused with
/// ``VerificationError/invalidChainLength(_:)``, as Apple's library refuses it.
///
/// A validated chain is remembered with its decoded header, keyed by the exact header segment
/// and honouring the validity of its certificates, so verifying more data signed under the
/// same header costs one payload decoding and one ECDSA verification.
/// The verifier is safe to share between threads.
public final class SignedDataVerifier: Sendable {
    /// The bundle identifier signed data must name.
    public let bundleId: String
    /// The app's Apple ID, which notifications must name in production.
    public let appAppleId: Int64?
    /// The environment signed data must come from.
    public let environment: AppStoreEnvironment
    /// The trusted roots chains must end in.
    public let rootCertificates: [X509Certificate]

    private let validator: CertificateChainValidator
    private let state: Mutex<State>

    private struct State {
        var cache: CertificateChainCache
        var statistics = VerifierStatistics()
    }

    /// How many validated chains a verifier remembers.
    static let chainCacheCapacity = 32

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - rootCertificates: The trusted roots: Apple Root CA - G3 for App Store data, or
    ///     the local store's signing authority root (`StoreTesting`). Required except for the Xcode and
    ///     LocalTesting environments.
    ///   - bundleId: The app's bundle identifier.
    ///   - appAppleId: The app's Apple ID; required for the Production environment.
    ///   - environment: The environment signed data must come from.
    ///   - enableOnlineChecks: Must be false: StoreRules has no network for OCSP.
    public init(
        rootCertificates: [X509Certificate],
        bundleId: String,
        appAppleId: Int64? = nil,
        environment: AppStoreEnvironment,
        enableOnlineChecks: Bool = false
    ) throws(VerifierConfigurationError) {
        guard !enableOnlineChecks else { throw .onlineChecksUnavailable }
        guard environment != .production || appAppleId != nil else { throw .missingAppAppleId }
        guard !rootCertificates.isEmpty || environment == .xcode || environment == .localTesting else {
            throw .missingRootCertificates(environment)
        }
        self.rootCertificates = rootCertificates
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        validator = CertificateChainValidator(trustedRoots: rootCertificates)
        state = Mutex(State(cache: CertificateChainCache(capacity: Self.chainCacheCapacity)))
    }

    /// Whether signatures and chains are checked: always, unless no root is configured for the
    /// Xcode or LocalTesting environment.
    public var checksSignatures: Bool { !rootCertificates.isEmpty }

    /// The work done so far: chain validations, chain-cache hits and signature checks.
    public var statistics: VerifierStatistics {
        state.withLock { $0.statistics }
    }

    /// Verifies a signed transaction and checks its bundle identifier, then its environment.
    public func verifyAndDecodeTransaction(_ signedTransaction: String) throws(VerificationError) -> JWSTransactionDecodedPayload {
        let transaction = try verifyAndDecode(signedTransaction, as: JWSTransactionDecodedPayload.self)
        try checkBundleId(transaction.bundleId)
        try checkEnvironment(transaction.environment)
        return transaction
    }

    /// Verifies signed renewal info and checks its environment (it carries no bundle
    /// identifier).
    public func verifyAndDecodeRenewalInfo(_ signedRenewalInfo: String) throws(VerificationError) -> JWSRenewalInfoDecodedPayload {
        let renewalInfo = try verifyAndDecode(signedRenewalInfo, as: JWSRenewalInfoDecodedPayload.self)
        try checkEnvironment(renewalInfo.environment)
        return renewalInfo
    }

    /// Verifies a signed app transaction and checks its bundle identifier (and app Apple ID in
    /// production), then its `receiptType` as the environment.
    public func verifyAndDecodeAppTransaction(_ signedAppTransaction: String) throws(VerificationError) -> JWSAppTransactionDecodedPayload {
        let appTransaction = try verifyAndDecode(signedAppTransaction, as: JWSAppTransactionDecodedPayload.self)
        try checkBundleId(appTransaction.bundleId)
        try checkAppAppleId(appTransaction.appAppleId)
        try checkEnvironment(appTransaction.receiptType)
        return appTransaction
    }

    /// Verifies a Retention Messaging real-time request's `signedPayload`, as Apple's library
    /// does: the app Apple ID in production (the payload names no bundle), then the environment.
    public func verifyAndDecodeRealtimeRequest(_ signedPayload: String) throws(VerificationError) -> DecodedRealtimeRequestBody {
        let request = try verifyAndDecode(signedPayload, as: DecodedRealtimeRequestBody.self)
        try checkAppAppleId(request.appAppleId)
        try checkEnvironment(request.environment)
        return request
    }

    /// Verifies an App Store Server Notification V2 `signedPayload`.
    ///
    /// The bundle identifier, app Apple ID and environment come from the first present of
    /// `data`, `summary`, `externalPurchaseToken` (whose environment is sandbox when its
    /// identifier starts with `SANDBOX`) and `appData`; none present counts as a mismatch. The
    /// bundle identifier is checked first, then the app Apple ID in production, then the
    /// environment. The signed transaction and renewal info inside `data` are not verified
    /// here: verify each with ``verifyAndDecodeTransaction(_:)`` and
    /// ``verifyAndDecodeRenewalInfo(_:)``.
    public func verifyAndDecodeNotification(_ signedPayload: String) throws(VerificationError) -> ResponseBodyV2DecodedPayload {
        let notification = try verifyAndDecode(signedPayload, as: ResponseBodyV2DecodedPayload.self)
        let source: (bundleId: String?, appAppleId: Int64?, environment: AppStoreEnvironment?)
        if let data = notification.data {
            source = (data.bundleId, data.appAppleId, data.environment)
        } else if let summary = notification.summary {
            source = (summary.bundleId, summary.appAppleId, summary.environment)
        } else if let token = notification.externalPurchaseToken {
            source = (token.bundleId, token.appAppleId, token.environment)
        } else if let appData = notification.appData {
            source = (appData.bundleId, appData.appAppleId, appData.environment)
        } else {
            source = (nil, nil, nil)
        }
        try checkBundleId(source.bundleId)
        try checkAppAppleId(source.appAppleId)
        try checkEnvironment(source.environment)
        return notification
    }

    /// Refuses a payload whose bundle identifier is not the app's.
    private func checkBundleId(_ found: String?) throws(VerificationError) {
        guard found == bundleId else { throw .invalidAppIdentifier(expected: bundleId, found: found) }
    }

    /// Refuses, in production only, a payload whose app Apple ID is not the app's.
    private func checkAppAppleId(_ found: Int64?) throws(VerificationError) {
        guard environment != .production || found == appAppleId else {
            throw .invalidAppAppleId(expected: appAppleId, found: found)
        }
    }

    /// Refuses a payload from another environment.
    private func checkEnvironment(_ found: AppStoreEnvironment?) throws(VerificationError) {
        guard found == environment else { throw .invalidEnvironment(expected: environment, found: found) }
    }

    /// Runs the checks common to every kind of signed data (steps 1–7) and returns the payload.
    ///
    /// A header segment seen before with a chain that validated is neither decoded nor
    /// validated again while the payload's date lies inside the chain's validity: its decoded
    /// header comes from the cache, and steps 2–4 run on it as on a fresh one.
    private func verifyAndDecode<Payload: SignedPayload>(_ text: String, as type: Payload.Type) throws(VerificationError) -> Payload {
        let segments: JWSSegments
        do {
            segments = try JWSSegments(text)
        } catch {
            throw .malformedJWS(error)
        }
        let cacheKey = CertificateChainCache.Key(headerSegment: segments.header)
        let cached = checksSignatures ? state.withLock { $0.cache.entry(for: cacheKey) } : nil

        let header: JWSDecodedHeader
        let payloadJSON: Data
        let rawSignature: Data
        do {
            (header, payloadJSON, rawSignature) = try segments.decoded(knownHeader: cached?.header)
        } catch {
            throw .malformedJWS(error)
        }
        let payload: Payload
        do {
            payload = try SignedPayloadJSON.decode(Payload.self, from: payloadJSON)
        } catch {
            throw .malformedPayload(DecodingFailure.summary(of: error))
        }
        let signedByXcode = environment.signsWithOneSelfSignedCertificate && header.x5c?.count == 1
        guard checksSignatures || signedByXcode else { return payload }

        guard let chain = header.x5c, !chain.isEmpty else { throw .missingCertificateChain }
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm(header.alg) }
        let leafKey: ECKey
        if signedByXcode {
            leafKey = try Self.selfSignedKey(chain[0])
            state.withLock { $0.statistics.signatureVerifications += 1 }
        } else {
            guard chain.count == 3 else { throw .invalidChainLength(chain.count) }
            leafKey = try chainedLeafKey(chain, header: header, cached: cached, cacheKey: cacheKey,
                                         date: payload.signedDate ?? Date())
        }

        var signingInput = segments.signingInput
        guard let derSignature = try? ES256Signature.der(fromRaw: rawSignature),
              signingInput.withUTF8({ leafKey.verifySHA256(derSignature: derSignature, of: UnsafeRawBufferPointer($0)) })
        else { throw .invalidSignature }
        return payload
    }

    /// The leaf key of a three-certificate `x5c`, from the cache when the chain validated
    /// before and `date` lies inside its validity, else after validating it.
    private func chainedLeafKey(
        _ chain: [String], header: JWSDecodedHeader, cached: CertificateChainCache.Entry?,
        cacheKey: CertificateChainCache.Key, date: Date
    ) throws(VerificationError) -> ECKey {
        let leafKey: ECKey
        if let cached, cached.chain.validity.contains(date) {
            state.withLock { state in
                state.statistics.chainCacheHits += 1
                state.statistics.signatureVerifications += 1
            }
            leafKey = cached.chain.leafKey
        } else {
            let validated = try validateChain(leaf: chain[0], intermediate: chain[1], at: date)
            state.withLock { state in
                state.cache.insert(CertificateChainCache.Entry(header: header, chain: validated), for: cacheKey)
                state.statistics.signatureVerifications += 1
            }
            leafKey = validated.leafKey
        }
        return leafKey
    }

    /// The P-256 key of the one self-signed certificate StoreKit Testing in Xcode signs with.
    private static func selfSignedKey(_ base64: String) throws(VerificationError) -> ECKey {
        let certificate = try certificate(base64, index: 0)
        guard let key = try? ECKey(publicKeyOf: certificate) else {
            throw .invalidCertificate(index: 0, reason: "its public key cannot be read")
        }
        guard key.isP256 else { throw .unsupportedLeafKey(key.curveName ?? "not an EC key") }
        return key
    }

    /// Validates the leaf and intermediate of `x5c` at `date` with OpenSSL.
    private func validateChain(leaf: String, intermediate: String, at date: Date) throws(VerificationError) -> CertificateChainValidator.ValidatedChain {
        let leafCertificate = try Self.certificate(leaf, index: 0)
        let intermediateCertificate = try Self.certificate(intermediate, index: 1)
        state.withLock { $0.statistics.chainValidations += 1 }
        return try validator.validate(leaf: leafCertificate, intermediate: intermediateCertificate, at: date)
    }

    /// Reads `x5c[index]`: standard base64, with padding, of a DER certificate.
    private static func certificate(_ base64: String, index: Int) throws(VerificationError) -> X509Certificate {
        guard let der = Data(base64Encoded: base64) else {
            throw .invalidCertificate(index: index, reason: "not standard base64")
        }
        do {
            return try X509Certificate(derRepresentation: der)
        } catch {
            throw .invalidCertificate(index: index, reason: error.description)
        }
    }
}
