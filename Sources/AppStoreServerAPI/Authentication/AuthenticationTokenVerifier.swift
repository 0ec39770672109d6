import Foundation
import StoreCore

/// Checks a bearer token as the App Store Server API does: an ES256 JWT signed by the key its
/// `kid` names, for the audience `appstoreconnect-v1` and the expected bundle, not expired by
/// the wall clock, and living at most 60 minutes after `iat` when it has one.
public struct AuthenticationTokenVerifier: Sendable {
    /// The keys accepted, by key id, each with the issuer id it belongs to.
    public let keys: [String: AcceptedKey]
    /// The bundle identifier tokens must name.
    public let bundleID: String

    /// A key a verifier accepts.
    public struct AcceptedKey: Sendable {
        /// The issuer id tokens signed with the key must name.
        public let issuerID: String
        let publicKey: ECKey

        /// A key from its public PEM and issuer.
        public init(publicKeyPEM: String, issuerID: String) throws(AppStoreServerAPIKeyError) {
            do {
                publicKey = try ECKey(publicKeyPEM: publicKeyPEM)
            } catch {
                throw .unreadablePrivateKey(error.description)
            }
            self.issuerID = issuerID
        }
    }

    /// A verifier accepting `keys` (by key id) for `bundleID`.
    public init(keys: [String: AcceptedKey], bundleID: String) {
        self.keys = keys
        self.bundleID = bundleID
    }

    /// The claims of `authorization` (the `Authorization` header's value), or why it is refused.
    public func verify(authorization: String?, now: Date = Date()) -> Result<AuthenticationClaims, Refusal> {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return .failure(.missing) }
        let claims: AuthenticationClaims
        let key: AcceptedKey
        switch signedClaims(String(authorization.dropFirst("Bearer ".count)), as: AuthenticationClaims.self,
                            describing: "iss, exp, aud and bid") {
        case .failure(let refusal): return .failure(refusal)
        case .success(let signed): (claims, key) = signed
        }
        guard claims.iss == key.issuerID else { return .failure(.wrongIssuer) }
        guard claims.aud == AuthenticationClaims.audience else { return .failure(.wrongAudience) }
        guard claims.bid == bundleID else { return .failure(.wrongBundle) }
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        guard claims.exp > seconds else { return .failure(.expired) }
        if let issued = claims.iat, claims.exp - issued > Int64(AuthenticationClaims.maximumLifetime) {
            return .failure(.livesTooLong)
        }
        return .success(claims)
    }

    /// The claims of a promotional offer signature (``PromotionalOfferSignatureIssuer``), as
    /// StoreKit checks one: signed by an accepted key, for its issuer, the audience
    /// `promotional-offer` and the app's bundle; or why it is refused.
    public func verifyPromotionalOffer(_ signature: String) -> Result<PromotionalOfferSignatureIssuer.Claims, Refusal> {
        switch signedClaims(signature, as: PromotionalOfferSignatureIssuer.Claims.self,
                            describing: "iss, iat, bid, aud, nonce, productId and offerIdentifier") {
        case .failure(let refusal): return .failure(refusal)
        case .success(let (claims, key)):
            guard claims.iss == key.issuerID else { return .failure(.wrongIssuer) }
            guard claims.aud == PromotionalOfferSignatureIssuer.audience else { return .failure(.wrongAudience) }
            guard claims.bid == bundleID else { return .failure(.wrongBundle) }
            return .success(claims)
        }
    }

    /// The claims of a compact ES256 JWT signed by the accepted key its `kid` names.
    private func signedClaims<Claims: Decodable>(_ token: String, as type: Claims.Type,
                                                 describing expected: String) -> Result<(Claims, AcceptedKey), Refusal> {
        let jws: CompactJWS
        do {
            jws = try CompactJWS(parsing: token)
        } catch {
            return .failure(.malformed("the token is not a compact JWT: \(error)"))
        }
        guard jws.header.alg == "ES256" else { return .failure(.malformed("the token is not signed with ES256")) }
        guard let keyID = jws.header.kid, let key = keys[keyID] else { return .failure(.unknownKey) }
        guard let signingInput = token.lastIndex(of: ".").map({ token[..<$0] }),
              let der = try? ES256Signature.der(fromRaw: jws.signature),
              key.publicKey.verifySHA256(derSignature: der, of: Data(signingInput.utf8))
        else { return .failure(.badSignature) }
        do {
            return .success((try JSONDecoder().decode(Claims.self, from: jws.payload), key))
        } catch {
            return .failure(.malformed("the token's claims are not \(expected)"))
        }
    }

    /// Why a token is refused (`401`).
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// No `Authorization: Bearer …` header.
        case missing
        /// Not an ES256 JWT with the expected claims.
        case malformed(String)
        /// The `kid` names no accepted key.
        case unknownKey
        /// The signature does not verify with the named key.
        case badSignature
        /// `iss` is not the key's issuer.
        case wrongIssuer
        /// `aud` is not `appstoreconnect-v1` (`promotional-offer` for an offer's signature).
        case wrongAudience
        /// `bid` is not the app's bundle identifier.
        case wrongBundle
        /// `exp` is past.
        case expired
        /// `exp` is more than 60 minutes after `iat`.
        case livesTooLong

        /// A sentence for the response's log.
        public var description: String {
            switch self {
            case .missing: "no Authorization: Bearer token"
            case .malformed(let reason): reason
            case .unknownKey: "the token's kid names no key this server accepts"
            case .badSignature: "the token's signature does not verify with the key its kid names"
            case .wrongIssuer: "the token's iss is not the issuer of its key"
            case .wrongAudience: "the token's aud is not the one expected (appstoreconnect-v1, or promotional-offer for an offer)"
            case .wrongBundle: "the token's bid is not this app's bundle identifier"
            case .expired: "the token has expired"
            case .livesTooLong: "the token's exp is more than 60 minutes after its iat"
            }
        }
    }
}
