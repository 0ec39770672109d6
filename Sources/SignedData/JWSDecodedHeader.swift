/// The protected header of a compact JWS signed by the App Store.
public struct JWSDecodedHeader: Codable, Sendable, Hashable {
    /// The signing algorithm. App Store data is signed with `ES256`.
    public var alg: String?
    /// The certificate chain, leaf first, each certificate as standard base64 of its DER.
    public var x5c: [String]?
    /// The key identifier, which StoreKit Testing in Xcode sets.
    public var kid: String?
    /// The media type of the whole JWS, such as `JWT`.
    public var typ: String?

    /// Creates a header.
    public init(alg: String? = nil, x5c: [String]? = nil, kid: String? = nil, typ: String? = nil) {
        self.alg = alg
        self.x5c = x5c
        self.kid = kid
        self.typ = typ
    }
}
