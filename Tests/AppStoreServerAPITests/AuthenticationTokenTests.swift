import AppStoreServerAPI
import Foundation
import StoreCore
import Testing

@Suite struct AuthenticationTokenTests {
    static let made = try! AppStoreServerAPIKey.generate(keyID: "KEY1234567", issuerID: "57246542-96fe-1a63-e053-0824d011072a")

    static func verifier(bundleID: String = "com.example.app") throws -> AuthenticationTokenVerifier {
        try AuthenticationTokenVerifier(
            keys: ["KEY1234567": .init(publicKeyPEM: made.key.publicKeyPEM, issuerID: made.key.issuerID)], bundleID: bundleID)
    }

    static func parts(_ token: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let jws = try CompactJWS(parsing: token)
        let header = try JSONSerialization.jsonObject(with: Data(base64URL: String(token.split(separator: ".")[0]))) as? [String: Any]
        let claims = try JSONSerialization.jsonObject(with: jws.payload) as? [String: Any]
        return (try #require(header), try #require(claims))
    }

    @Test func aTokenCarriesApplesHeaderAndClaimsAndVerifies() throws {
        let issuer = AuthenticationTokenIssuer(key: Self.made.key, bundleID: "com.example.app")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try issuer.token(now: now)
        let (header, claims) = try Self.parts(token)
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "KEY1234567")
        #expect(header["typ"] as? String == "JWT")
        #expect(claims["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(claims["iat"] as? Int == 1_800_000_000)
        #expect(claims["exp"] as? Int == 1_800_000_300)
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["bid"] as? String == "com.example.app")
        #expect(try Self.verifier().verify(authorization: "Bearer \(token)", now: now).get().bid == "com.example.app")
    }

    @Test func aTokenIsReusedUntilAMinuteBeforeItExpires() throws {
        let issuer = AuthenticationTokenIssuer(key: Self.made.key, bundleID: "com.example.app")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try issuer.token(now: start)
        #expect(try issuer.token(now: start.addingTimeInterval(239)) == first)
        let renewed = try issuer.token(now: start.addingTimeInterval(241))
        #expect(renewed != first)
        #expect(try Self.parts(renewed).claims["iat"] as? Int == 1_800_000_241)
    }

    @Test func aLifetimeIsNeverOverAnHour() throws {
        let issuer = AuthenticationTokenIssuer(key: Self.made.key, bundleID: "com.example.app", lifetime: 5 * 3600)
        #expect(issuer.lifetime == 3600)
        let claims = try Self.parts(try issuer.token(now: Date(timeIntervalSince1970: 1_800_000_000))).claims
        #expect(claims["exp"] as? Int == 1_800_003_600)
    }

    @Test func theVerifierRefusesWhatAppleRefuses() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let key = Self.made.key
        func token(_ claims: AuthenticationClaims, key: AppStoreServerAPIKey = Self.made.key) throws -> String {
            "Bearer " + (try AuthenticationTokenIssuer.sign(claims, key: key))
        }
        let verifier = try Self.verifier()
        let good = AuthenticationClaims(iss: key.issuerID, iat: nil, exp: 1_800_000_300, bid: "com.example.app")
        #expect(throws: Never.self) { try verifier.verify(authorization: try token(good), now: now).get() }
        var claims = good
        claims.aud = "appstoreconnect-v2"
        #expect(verifier.verify(authorization: try token(claims), now: now).failure == .wrongAudience)
        claims = good
        claims.bid = "com.example.other"
        #expect(verifier.verify(authorization: try token(claims), now: now).failure == .wrongBundle)
        claims = good
        claims.exp = 1_800_000_000
        #expect(verifier.verify(authorization: try token(claims), now: now).failure == .expired)
        claims = good
        claims.iat = 1_800_000_000 - 7200
        claims.exp = 1_800_000_300
        #expect(verifier.verify(authorization: try token(claims), now: now).failure == .livesTooLong)
        claims = good
        claims.iss = "another-issuer"
        #expect(verifier.verify(authorization: try token(claims), now: now).failure == .wrongIssuer)
        let stranger = try AppStoreServerAPIKey.generate(keyID: "KEY1234567", issuerID: key.issuerID).key
        #expect(verifier.verify(authorization: try token(good, key: stranger), now: now).failure == .badSignature)
        let unknown = try AppStoreServerAPIKey.generate(keyID: "OTHERKEY00", issuerID: key.issuerID).key
        #expect(verifier.verify(authorization: try token(good, key: unknown), now: now).failure == .unknownKey)
        #expect(verifier.verify(authorization: nil, now: now).failure == .missing)
        #expect(verifier.verify(authorization: "Basic abc", now: now).failure == .missing)
        if case .malformed = verifier.verify(authorization: "Bearer a.b", now: now).failure {} else {
            Issue.record("a token that is not a JWS is malformed")
        }
    }

    @Test func aKeyThatIsNotAP8OnP256IsRefusedWithoutPrintingIt() throws {
        do {
            _ = try AppStoreServerAPIKey(privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", keyID: "K", issuerID: "I")
            Issue.record("a PEM that holds no key is refused")
        } catch {
            guard case .unreadablePrivateKey = error else { throw error }
        }
        #expect(throws: AppStoreServerAPIKeyError.invalidKeyID) {
            try AppStoreServerAPIKey(privateKeyPEM: Self.made.privateKeyPEM, keyID: "", issuerID: "I")
        }
        let key = try AppStoreServerAPIKey(privateKeyPEM: Self.made.privateKeyPEM, keyID: "K", issuerID: "I")
        #expect("\(key)" == "key K of issuer I")
        #expect(!"\(key)".contains("PRIVATE"))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

extension Data {
    init(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self = Data(base64Encoded: base64) ?? Data()
    }
}
