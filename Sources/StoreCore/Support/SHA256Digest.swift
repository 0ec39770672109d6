import COpenSSL
import Foundation

/// SHA-256 of text, in lowercase hexadecimal: the key a ledger storage files a transaction
/// version under (a signed JWS with its certificate chain runs to kilobytes, too long to key an
/// index by; PostgreSQL's `encode(sha256(…), 'hex')` gives the same text), and what a service
/// compares API keys by.
public enum SHA256Digest {
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
