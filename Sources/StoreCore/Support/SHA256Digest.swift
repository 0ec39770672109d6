import COpenSSL

/// SHA-256 of text: in lowercase hexadecimal, the key a ledger storage files a transaction
/// version under (a signed JWS with its certificate chain runs to kilobytes, too long to key an
/// index by; PostgreSQL's `encode(sha256(…), 'hex')` gives the same text); as bytes, what a
/// service compares API keys by.
public enum SHA256Digest {
    /// The SHA-256 of `text`'s UTF-8, as 32 bytes.
    public static func bytes(of text: String) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let hashed = text.utf8.withContiguousStorageIfAvailable { buffer in
            SHA256(buffer.baseAddress, buffer.count, &digest)
        }
        if hashed == nil {
            var copy = Array(text.utf8)
            _ = copy.withUnsafeMutableBufferPointer { SHA256($0.baseAddress, $0.count, &digest) }
        }
        return digest
    }

    /// The SHA-256 of `text`'s UTF-8, in lowercase hexadecimal.
    public static func hex(of text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        let digest = bytes(of: text)
        return String(unsafeUninitializedCapacity: digest.count * 2) { buffer in
            for (index, byte) in digest.enumerated() {
                buffer[2 * index] = digits[Int(byte >> 4)]
                buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return digest.count * 2
        }
    }
}
