import COpenSSL

/// HMAC-SHA256 through OpenSSL: what a Standard Webhooks signature is made of.
public enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                _ = HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress, messageBytes.count,
                         &output, &length)
            }
        }
        return Array(output.prefix(Int(length)))
    }
}
