import COpenSSL
import Foundation
import StoreCore

/// OpenSSL verifying ES256 signatures on its own: `EVP_DigestVerify` with SHA-256 and a public
/// key parsed once, over the signing input of each JWS and its signature converted to DER.
final class OpenSSLVerification {
    private let key: OpaquePointer
    private let messages: [[UInt8]]
    private let derSignatures: [[UInt8]]

    /// The number of signatures ``verifyAll()`` checks.
    var count: Int { messages.count }

    /// Reads the public key of `leaf` and the signing input and signature of each compact JWS.
    init(leaf: X509Certificate, signedData: [String]) throws {
        let certificate: OpaquePointer? = leaf.derRepresentation.withUnsafeBytes { buffer in
            var cursor = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let certificate else { throw BenchFailure("OpenSSL could not read the bench leaf certificate") }
        defer { X509_free(certificate) }
        guard let key = X509_get_pubkey(certificate) else { throw BenchFailure("OpenSSL could not read the bench leaf key") }
        self.key = key
        var messages: [[UInt8]] = []
        var derSignatures: [[UInt8]] = []
        for jws in signedData {
            guard let signatureStart = jws.lastIndex(of: "."),
                  let raw = Data(base64Encoded: Self.standardBase64(jws[jws.index(after: signatureStart)...])),
                  raw.count == 64,
                  let der = Self.der(rawSignature: [UInt8](raw))
            else {
                EVP_PKEY_free(key)
                throw BenchFailure("a bench JWS has no raw ES256 signature")
            }
            messages.append(Array(jws.utf8[..<signatureStart]))
            derSignatures.append(der)
        }
        self.messages = messages
        self.derSignatures = derSignatures
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Verifies every signature; throws when one fails, so a broken baseline cannot pass for
    /// a fast one.
    func verifyAll() throws {
        for (message, signature) in zip(messages, derSignatures) {
            guard let context = EVP_MD_CTX_new() else { throw BenchFailure("OpenSSL could not allocate a digest context") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1,
                  EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
            else { throw BenchFailure("OpenSSL rejected a bench signature") }
        }
    }

    /// Base64url without padding turned into standard base64 with padding.
    private static func standardBase64(_ text: Substring) -> String {
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return standard + String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
    }

    /// The DER `ECDSA-Sig-Value` of a raw 64-byte `r‖s` signature.
    private static func der(rawSignature: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard ECDSA_SIG_set0(signature, BN_bin2bn(rawSignature, 32, nil), BN_bin2bn(Array(rawSignature[32...]), 32, nil)) == 1 else {
            return nil
        }
        var der = [UInt8](repeating: 0, count: Int(i2d_ECDSA_SIG(signature, nil)))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_ECDSA_SIG(signature, &cursor)
        }
        return der
    }
}
