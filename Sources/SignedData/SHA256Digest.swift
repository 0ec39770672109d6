import COpenSSL
import Foundation

/// SHA-256 of text or bytes: in lowercase hexadecimal, the key a ledger storage files a transaction
/// version under (a signed JWS with its certificate chain runs to kilobytes, too long to key an
/// index by; PostgreSQL's `encode(sha256(…), 'hex')` gives the same text); as bytes, what a
/// service compares API keys by, and what an ES256 signature signs.
public enum SHA256Digest {
    /// The SHA-256 of `text`'s UTF-8, as 32 bytes.
    public static func bytes(of text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { bytes(of: UnsafeRawBufferPointer($0)) }
    }

    /// The SHA-256 of `data`, as 32 bytes.
    public static func bytes(of data: some ContiguousBytes) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        data.withUnsafeBytes { buffer in
            _ = SHA256(buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count, &digest)
        }
        return digest
    }

    /// The SHA-256 of `text`'s UTF-8, in lowercase hexadecimal.
    public static func hex(of text: String) -> String {
        hex(bytes(of: text))
    }

    /// The SHA-256 of `data`, in lowercase hexadecimal.
    public static func hex(of data: some ContiguousBytes) -> String {
        hex(bytes(of: data))
    }

    private static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: digest.count * 2) { buffer in
            for (index, byte) in digest.enumerated() {
                buffer[2 * index] = digits[Int(byte >> 4)]
                buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return digest.count * 2
        }
    }
}
