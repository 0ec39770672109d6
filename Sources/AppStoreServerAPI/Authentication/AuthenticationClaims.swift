import Foundation

/// The claims of the JWT the App Store Server API takes as a bearer token: who issued it, for
/// which app, and for how long.
public struct AuthenticationClaims: Codable, Sendable, Equatable {
    /// The audience every token names.
    public static let audience = "appstoreconnect-v1"
    /// The longest a token may live, counted from `iat`.
    public static let maximumLifetime: TimeInterval = 60 * 60

    /// The issuer id.
    public var iss: String
    /// When the token was issued, in whole seconds since 1970; Apple's Python client sends none.
    public var iat: Int64?
    /// When the token expires, in whole seconds since 1970.
    public var exp: Int64
    /// The audience: `appstoreconnect-v1`.
    public var aud: String
    /// The app's bundle identifier.
    public var bid: String

    /// Describes a token's claims.
    public init(iss: String, iat: Int64?, exp: Int64, aud: String = AuthenticationClaims.audience, bid: String) {
        self.iss = iss
        self.iat = iat
        self.exp = exp
        self.aud = aud
        self.bid = bid
    }
}
