import Foundation

/// Base64url without padding (RFC 7515 §2), the encoding of every part of a compact JWS.
enum Base64URL {
    /// Encodes `data` with the URL-safe alphabet and no `=` padding.
    static func encode(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Decodes base64url text without padding; nil for any other character, for padding, or for
    /// a length no encoding produces.
    static func decode(_ text: Substring) -> Data? {
        guard text.utf8.count % 4 != 1,
              text.utf8.allSatisfy({ byte in
                  (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                      || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
              })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
