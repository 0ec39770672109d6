/// Signed data the store made and a ``SignedDataVerifier`` trusting the store's root verified,
/// like StoreKit's `VerificationResult.verified`: the compact JWS exactly as signed, and its
/// decoded payload.
public struct VerifiedSignedData<Payload: SignedPayload>: Sendable, Hashable where Payload: Hashable {
    /// The compact JWS, as the App Store would send it.
    public let jwsRepresentation: String
    /// The verified, decoded payload.
    public let payload: Payload

    /// Pairs a JWS with its verified payload.
    public init(jwsRepresentation: String, payload: Payload) {
        self.jwsRepresentation = jwsRepresentation
        self.payload = payload
    }
}

/// A signed transaction the store issued, verified.
public typealias VerifiedTransaction = VerifiedSignedData<JWSTransactionDecodedPayload>

/// A subscription's signed renewal info the store issued, verified.
public typealias VerifiedRenewalInfo = VerifiedSignedData<JWSRenewalInfoDecodedPayload>
