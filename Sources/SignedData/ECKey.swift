import COpenSSL
import Foundation
import Synchronization

/// An elliptic-curve key held by OpenSSL: a private key that signs, or a certificate's public
/// key that verifies.
///
/// Shared across threads without a lock: StoreRules never changes a key after creating it, and
/// OpenSSL 3 allows concurrent signing and verifying with one `EVP_PKEY`.
package final class ECKey: @unchecked Sendable {
    /// The curves StoreRules generates keys on.
    package enum Curve: String, Sendable {
        /// NIST P-256, the curve of ES256.
        case p256 = "P-256"
        /// NIST P-384, the curve of Apple's root CA.
        case p384 = "P-384"
    }

    let pointer: OpaquePointer
    /// Contexts set up to verify with this key, kept between verifications: setting one up
    /// costs OpenSSL about as much as a tenth of a P-256 verification.
    private let verifyContexts = Mutex<[VerifyContext]>([])

    private init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        for context in verifyContexts.withLock({ $0 }) { EVP_PKEY_CTX_free(context.pointer) }
        EVP_PKEY_free(pointer)
    }

    /// Generates a new private key on `curve`.
    package static func generate(on curve: Curve) throws(OpenSSLFailure) -> ECKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw OpenSSLFailure("creating a key-generation context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_group_name(context, curve.rawValue) == 1,
              EVP_PKEY_keygen(context, &key) == 1,
              let key
        else { throw OpenSSLFailure("generating a \(curve.rawValue) key") }
        return ECKey(taking: key)
    }

    /// Reads an unencrypted PEM private key (PKCS #8 or SEC 1); it must be an elliptic-curve
    /// key.
    package init(privateKeyPEM: String) throws(OpenSSLFailure) {
        let bio = MemoryBIO(reading: Data(privateKeyPEM.utf8))
        // The callback supplies no passphrase: an encrypted key fails to load instead of
        // OpenSSL asking for a passphrase on the terminal.
        guard let key = PEM_read_bio_PrivateKey(bio.pointer, nil, { _, _, _, _ in 0 }, nil) else {
            throw OpenSSLFailure("reading a PEM private key")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else {
            EVP_PKEY_free(key)
            throw OpenSSLFailure("reading a PEM private key: not an elliptic-curve key")
        }
        pointer = key
    }

    /// Reads a PEM public key (`BEGIN PUBLIC KEY`); it must be an elliptic-curve key.
    package init(publicKeyPEM: String) throws(OpenSSLFailure) {
        let bio = MemoryBIO(reading: Data(publicKeyPEM.utf8))
        guard let key = PEM_read_bio_PUBKEY(bio.pointer, nil, nil, nil) else {
            throw OpenSSLFailure("reading a PEM public key")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else {
            EVP_PKEY_free(key)
            throw OpenSSLFailure("reading a PEM public key: not an elliptic-curve key")
        }
        pointer = key
    }

    /// The public key of `certificate`.
    package init(publicKeyOf certificate: X509Certificate) throws(OpenSSLFailure) {
        guard let key = X509_get_pubkey(certificate.handle.pointer) else {
            throw OpenSSLFailure("reading the public key of \(certificate.subject)")
        }
        pointer = key
    }

    /// The private key as unencrypted PKCS #8 PEM text.
    package var privateKeyPEM: String {
        let bio = MemoryBIO()
        PEM_write_bio_PrivateKey(bio.pointer, pointer, nil, nil, 0, nil, nil)
        return String(decoding: bio.contents, as: UTF8.self)
    }

    /// The public half as PEM text (`BEGIN PUBLIC KEY`).
    package var publicKeyPEM: String {
        let bio = MemoryBIO()
        PEM_write_bio_PUBKEY(bio.pointer, pointer)
        return String(decoding: bio.contents, as: UTF8.self)
    }

    /// The curve's name as OpenSSL spells it (`prime256v1`, `secp384r1`), or nil for a key
    /// that is not on a named curve.
    package var curveName: String? {
        guard EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC else { return nil }
        var name = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether this is a key on NIST P-256, the only curve ES256 allows.
    package var isP256: Bool { curveName == "prime256v1" }

    /// Whether `certificate` certifies this private key's public half.
    package func isPrivateKey(of certificate: X509Certificate) -> Bool {
        let matches = X509_check_private_key(certificate.handle.pointer, pointer) == 1
        OpenSSLErrorQueue.clear()
        return matches
    }

    /// Signs `message` with ECDSA over SHA-256, returning OpenSSL's DER signature.
    package func signSHA256(_ message: Data) throws(OpenSSLFailure) -> Data {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLFailure("creating a signing context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            throw OpenSSLFailure("starting an ECDSA signature")
        }
        let signature: Data? = message.withUnsafeBytes { input in
            let bytes = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
            var length = 0
            guard EVP_DigestSign(context, nil, &length, bytes, input.count) == 1 else { return nil }
            var signature = Data(count: length)
            let status = signature.withUnsafeMutableBytes { output in
                EVP_DigestSign(context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, bytes, input.count)
            }
            return status == 1 ? signature.prefix(length) : nil
        }
        guard let signature else { throw OpenSSLFailure("computing an ECDSA signature") }
        return signature
    }

    /// Whether `derSignature` is this public key's ECDSA-over-SHA-256 signature of `message`.
    ///
    /// The message is hashed with SHA-256 and the digest verified through a context kept
    /// for this key (one per thread verifying at once), so no verification sets one up anew.
    package func verifySHA256(derSignature: some ContiguousBytes, of message: some ContiguousBytes) -> Bool {
        let digest = SHA256Digest.bytes(of: message)
        guard let context = verifyContexts.withLock({ $0.popLast() }) ?? newVerifyContext() else { return false }
        let verified = derSignature.withUnsafeBytes { signature in
            EVP_PKEY_verify(context.pointer, signature.baseAddress?.assumingMemoryBound(to: UInt8.self), signature.count,
                            digest, digest.count) == 1
        }
        OpenSSLErrorQueue.clear()
        verifyContexts.withLock { contexts in
            if contexts.count < 16 { contexts.append(context) } else { EVP_PKEY_CTX_free(context.pointer) }
        }
        return verified
    }

    /// A context that verifies digests with this key.
    private func newVerifyContext() -> VerifyContext? {
        guard let context = EVP_PKEY_CTX_new(pointer, nil) else { return nil }
        guard EVP_PKEY_verify_init(context) == 1 else {
            EVP_PKEY_CTX_free(context)
            OpenSSLErrorQueue.clear()
            return nil
        }
        return VerifyContext(pointer: context)
    }
}

/// An `EVP_PKEY_CTX` set up for verifying, used by one thread at a time.
private struct VerifyContext: @unchecked Sendable {
    let pointer: OpaquePointer
}
