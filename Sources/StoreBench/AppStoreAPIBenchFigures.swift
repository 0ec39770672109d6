/// The App Store Server API section of `storerules bench`: the client's bearer tokens against
/// OpenSSL's own ES256 signing rate, and transaction history paged from a local store, over HTTP
/// against the same pages answered in process.
public struct AppStoreAPIBenchFigures: Sendable, Encodable {
    /// Bearer tokens (ES256 JWTs) signed per second, none reused.
    public var jwtSignsPerSecond = 0.0
    /// OpenSSL's ECDSA P-256 signatures per second over messages of a token's length.
    public var openSSLSignsPerSecond = 0.0
    /// `jwtSignsPerSecond / openSSLSignsPerSecond`.
    public var jwtToOpenSSLSignRatio = 0.0
    /// History pages read and verified per second over HTTP (URLSession against the local
    /// store's API on loopback).
    public var historyPagesPerSecondOverHTTP = 0.0
    /// History pages answered and verified per second with the API called in process.
    public var historyPagesPerSecondInProcess = 0.0
    /// `historyPagesPerSecondOverHTTP / historyPagesPerSecondInProcess`: what the wire costs.
    public var historyHTTPToInProcessRatio = 0.0

    enum CodingKeys: String, CodingKey {
        case jwtSignsPerSecond = "jwt_signs_per_second", openSSLSignsPerSecond = "openssl_signs_per_second"
        case jwtToOpenSSLSignRatio = "jwt_to_openssl_sign_ratio"
        case historyPagesPerSecondOverHTTP = "history_pages_per_second_http"
        case historyPagesPerSecondInProcess = "history_pages_per_second_in_process"
        case historyHTTPToInProcessRatio = "history_http_to_in_process_ratio"
    }
}
