/// The signed-data section of `storerules bench`: verifications per second against OpenSSL's
/// verify rate for the same signatures.
public struct SignedDataBenchFigures: Sendable, Encodable {
    /// Signed transactions verified and decoded per second, the chain cached.
    public var verificationsPerSecond = 0.0
    /// OpenSSL's ECDSA P-256 verifies per second over the same messages and signatures.
    public var openSSLVerifiesPerSecond = 0.0
    /// `verificationsPerSecond / openSSLVerifiesPerSecond`.
    public var verificationToOpenSSLRatio = 0.0

    /// The goal for ``verificationToOpenSSLRatio``.
    public static let verificationToOpenSSLGoal = 0.95

    enum CodingKeys: String, CodingKey {
        case verificationsPerSecond = "verifications_per_second", openSSLVerifiesPerSecond = "openssl_verifies_per_second"
        case verificationToOpenSSLRatio = "verification_to_openssl_ratio"
    }
}
