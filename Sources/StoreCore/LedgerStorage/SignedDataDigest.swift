import COpenSSL
import Foundation

/// The key a storage files a transaction version under: the SHA-256 of its JWS, in lowercase
/// hexadecimal. A signed JWS with its certificate chain runs to kilobytes, too long to key an
/// index by; its digest is 64 characters, and PostgreSQL's `encode(sha256(…), 'hex')` gives the
/// same text.
public enum SignedDataDigest {
    /// The SHA-256 of `jws`'s UTF-8 bytes, in lowercase hexadecimal.
    public static func hex(of jws: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var bytes = Array(jws.utf8)
        _ = bytes.withUnsafeMutableBufferPointer { buffer in
            SHA256(buffer.baseAddress, buffer.count, &digest)
        }
        return digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
