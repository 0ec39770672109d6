import Foundation
import StoreCore
import Synchronization

/// Signs the bearer tokens an ``AppStoreServerAPIClient`` sends: ES256 JWTs with the header
/// `alg`, `kid`, `typ` and the claims `iss`, `iat`, `exp`, `aud`, `bid`.
///
/// A token is reused until a minute before it expires, then a new one is signed; safe to share
/// between threads.
public final class AuthenticationTokenIssuer: Sendable {
    /// The key that signs.
    public let key: AppStoreServerAPIKey
    /// The bundle identifier every token names.
    public let bundleID: String
    /// How long each token lives: at most ``AuthenticationClaims/maximumLifetime``.
    public let lifetime: TimeInterval

    private let current = Mutex<(token: String, expires: Date)?>(nil)
    private let renewalMargin: TimeInterval

    /// An issuer of tokens living `lifetime` seconds (5 minutes unless given, clamped to
    /// 1 second … 60 minutes).
    public init(key: AppStoreServerAPIKey, bundleID: String, lifetime: TimeInterval = 5 * 60) {
        self.key = key
        self.bundleID = bundleID
        self.lifetime = min(max(lifetime, 1), AuthenticationClaims.maximumLifetime)
        renewalMargin = min(60, self.lifetime / 2)
    }

    /// A token valid at `now` for at least the renewal margin: the last one, or a new one.
    public func token(now: Date = Date()) throws(AppStoreServerAPIError) -> String {
        try current.withLock { current throws(AppStoreServerAPIError) in
            if let current, current.expires.timeIntervalSince(now) > renewalMargin {
                return current.token
            }
            let issued = Int64(now.timeIntervalSince1970.rounded(.down))
            let claims = AuthenticationClaims(iss: key.issuerID, iat: issued, exp: issued + Int64(lifetime), bid: bundleID)
            let token = try Self.sign(claims, key: key)
            current = (token, Date(timeIntervalSince1970: TimeInterval(claims.exp)))
            return token
        }
    }

    /// `claims` signed with `key` as a compact JWT.
    public static func sign(_ claims: AuthenticationClaims, key: AppStoreServerAPIKey) throws(AppStoreServerAPIError) -> String {
        try signJWT(claims, key: key)
    }

    /// Any `claims` signed with `key` as a compact ES256 JWT, keys sorted, with the header
    /// `alg`, `kid` and `typ` Apple asks for.
    static func signJWT(_ claims: some Encodable, key: AppStoreServerAPIKey) throws(AppStoreServerAPIError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let payload = try encoder.encode(claims)
            let header = JWSDecodedHeader(alg: "ES256", kid: key.keyID, typ: "JWT")
            return try CompactJWS.signES256(payload: payload, header: header, key: key.privateKey).compactSerialization
        } catch {
            throw .signing("\(error)")
        }
    }
}
