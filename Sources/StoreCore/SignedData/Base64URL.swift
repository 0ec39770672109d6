import Foundation

/// Base64url without padding (RFC 7515 §2), the encoding of every part of a compact JWS.
///
/// Encoding and decoding work byte by byte on UTF-8, since a verifier decodes three parts of
/// every payload it sees.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `data` with the URL-safe alphabet and no `=` padding.
    static func encode(_ data: Data) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((data.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in data {
            accumulator = accumulator << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int(accumulator >> UInt32(bits) & 0x3F)])
            }
            accumulator &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            output.append(alphabet[Int(accumulator << UInt32(6 - bits) & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url text without padding; nil for any other character (including `=`),
    /// or for a length no encoding produces. Unused low bits of the last character are
    /// ignored, as common decoders do.
    static func decode(_ text: Substring) -> Data? {
        var text = text
        return text.withUTF8 { input -> Data? in
            var output = [UInt8]()
            output.reserveCapacity(input.count * 3 / 4)
            var accumulator: UInt32 = 0
            var bits = 0
            for byte in input {
                let value: UInt8
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
                case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
                case UInt8(ascii: "-"): value = 62
                case UInt8(ascii: "_"): value = 63
                default: return nil
                }
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                    accumulator &= (1 << UInt32(bits)) - 1
                }
            }
            guard bits < 6 else { return nil }
            return Data(output)
        }
    }
}
