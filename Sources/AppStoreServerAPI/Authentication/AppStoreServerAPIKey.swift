import Foundation
import StoreCore

/// An App Store Server API key from App Store Connect: the `.p8` file's private key (PKCS #8
/// PEM, on P-256), its key id and the issuer id of the team that made it.
///
/// Its description names the key id and issuer only: the private key is never printed.
public struct AppStoreServerAPIKey: Sendable, CustomStringConvertible {
    /// The key's id in App Store Connect (the JWT header's `kid`).
    public let keyID: String
    /// The issuer id of the team (the JWT's `iss`).
    public let issuerID: String
    let privateKey: ECKey

    /// Reads a key from the text of a `.p8` file.
    ///
    /// - Throws: ``AppStoreServerAPIKeyError`` when the text is not an unencrypted PEM private
    ///   key on P-256, or an id is empty or holds a control character.
    public init(privateKeyPEM: String, keyID: String, issuerID: String) throws(AppStoreServerAPIKeyError) {
        guard Self.isUsableIdentifier(keyID) else { throw .invalidKeyID }
        guard Self.isUsableIdentifier(issuerID) else { throw .invalidIssuerID }
        let key: ECKey
        do {
            key = try ECKey(privateKeyPEM: privateKeyPEM)
        } catch {
            throw .unreadablePrivateKey(error.description)
        }
        guard key.isP256 else { throw .notP256 }
        self.keyID = keyID
        self.issuerID = issuerID
        privateKey = key
    }

    /// Reads a key from a `.p8` file at `path`.
    public init(contentsOfFile path: String, keyID: String, issuerID: String) throws(AppStoreServerAPIKeyError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadableFile(path: path, reason: error.localizedDescription)
        }
        try self.init(privateKeyPEM: text, keyID: keyID, issuerID: issuerID)
    }

    /// A new key on P-256 with the given ids, and its `.p8` text: what the local store hands out.
    public static func generate(keyID: String, issuerID: String) throws(AppStoreServerAPIKeyError) -> (key: AppStoreServerAPIKey, privateKeyPEM: String) {
        let key: ECKey
        do {
            key = try ECKey.generate(on: .p256)
        } catch {
            throw .unreadablePrivateKey(error.description)
        }
        let pem = key.privateKeyPEM
        return (try AppStoreServerAPIKey(privateKeyPEM: pem, keyID: keyID, issuerID: issuerID), pem)
    }

    /// The public half's PEM, which a server checking tokens signed with this key keeps.
    public var publicKeyPEM: String { privateKey.publicKeyPEM }

    /// `key <kid> of issuer <iss>`.
    public var description: String { "key \(keyID) of issuer \(issuerID)" }

    private static func isUsableIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 256 && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

extension AppStoreServerAPIKey {
    /// OpenSSL's ECDSA signature of `message` with this key, as a token's is made but with
    /// nothing around it: the bench's reference for the signing rate.
    package func signatureForBench(_ message: Data) throws -> Data {
        try privateKey.signSHA256(message)
    }
}
