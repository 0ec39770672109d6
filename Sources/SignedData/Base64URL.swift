import Foundation

/// Base64url without padding (RFC 7515 §2), the encoding of every part of a compact JWS.
///
/// Both directions work on UTF-8 bytes, and decoding goes four characters at a time through a
/// lookup table, since a verifier decodes the payload and signature of every JWS it sees.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `data` with the URL-safe alphabet and no `=` padding.
    package static func encode(_ data: Data) -> String {
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
    package static func decode(_ text: Substring) -> Data? {
        var text = text
        return text.withUTF8(decode(_:))
    }

    /// Decodes the UTF-8 bytes of base64url text without padding, as ``decode(_:)-(Substring)``
    /// does: four characters at a time through a lookup table, straight into the result.
    static func decode(_ input: UnsafeBufferPointer<UInt8>) -> Data? {
        let tail = input.count % 4
        guard tail != 1 else { return nil }
        var output = Data(count: input.count / 4 * 3 + max(0, tail - 1))
        let decoded = output.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Bool in
            decodingTable.withUnsafeBufferPointer { (table: UnsafeBufferPointer<UInt8>) -> Bool in
                var inputIndex = 0
                var outputIndex = 0
                while inputIndex + 4 <= input.count {
                    let values = (table[Int(input[inputIndex])], table[Int(input[inputIndex + 1])],
                                  table[Int(input[inputIndex + 2])], table[Int(input[inputIndex + 3])])
                    guard (values.0 | values.1 | values.2 | values.3) != invalid else { return false }
                    let group = UInt32(values.0) << 18 | UInt32(values.1) << 12 | UInt32(values.2) << 6 | UInt32(values.3)
                    output[outputIndex] = UInt8(truncatingIfNeeded: group >> 16)
                    output[outputIndex + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    output[outputIndex + 2] = UInt8(truncatingIfNeeded: group)
                    inputIndex += 4
                    outputIndex += 3
                }
                guard tail != 0 else { return true }
                var group: UInt32 = 0
                for index in inputIndex..<input.count {
                    let value = table[Int(input[index])]
                    guard value != invalid else { return false }
                    group = group << 6 | UInt32(value)
                }
                group <<= UInt32(6 * (4 - tail))
                output[outputIndex] = UInt8(truncatingIfNeeded: group >> 16)
                if tail == 3 {
                    output[outputIndex + 1] = UInt8(truncatingIfNeeded: group >> 8)
                }
                return true
            }
        }
        return decoded ? output : nil
    }

    /// The marker of a byte outside the alphabet in ``decodingTable``; its high bits are set,
    /// so OR-ing it with any other entry keeps it recognizable.
    private static let invalid: UInt8 = 0xFF

    /// The 6-bit value of each byte of the alphabet, indexed by the byte; ``invalid`` for the
    /// others.
    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, byte) in alphabet.enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        return table
    }()
}
