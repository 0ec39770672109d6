/// Counts of the work a ``SignedDataVerifier`` has done since it was created.
public struct VerifierStatistics: Sendable, Hashable {
    /// Certificate chains validated with OpenSSL, successfully or not.
    public var chainValidations: Int
    /// Verifications that reused the chain validated for an identical JWS header, valid at
    /// the payload's date.
    public var chainCacheHits: Int
    /// ES256 signatures checked.
    public var signatureVerifications: Int

    /// Creates counts.
    public init(chainValidations: Int = 0, chainCacheHits: Int = 0, signatureVerifications: Int = 0) {
        self.chainValidations = chainValidations
        self.chainCacheHits = chainCacheHits
        self.signatureVerifications = signatureVerifications
    }
}
