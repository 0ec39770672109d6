import COpenSSL
import Foundation

/// The conversion between the two encodings of an ECDSA P-256 signature.
///
/// JOSE (RFC 7518 §3.4) sends ES256 signatures as the 64-byte concatenation of `r` and `s`,
/// each a 32-byte big-endian integer; OpenSSL produces and expects the DER `ECDSA-Sig-Value`
/// sequence. Apple's libraries reject DER signatures inside a JWS.
package enum ES256Signature {
    /// The size of each of `r` and `s` in the raw form.
    static let componentSize = 32

    /// Why a signature could not be converted.
    package enum ConversionError: Error, Equatable {
        /// The raw form is not exactly 64 bytes.
        case wrongRawLength(Int)
        /// The DER is not one `ECDSA-Sig-Value`, or has trailing bytes.
        case invalidDER
        /// `r` or `s` does not fit in 32 bytes.
        case componentTooLarge
    }

    /// Converts OpenSSL's DER signature to JOSE's raw `r‖s`.
    package static func raw(fromDER der: Data) throws(ConversionError) -> Data {
        let signature: OpaquePointer? = der.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let parsed = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            guard cursor == base + buffer.count else {
                ECDSA_SIG_free(parsed)
                return nil
            }
            return parsed
        }
        guard let signature else {
            OpenSSLErrorQueue.clear()
            throw .invalidDER
        }
        defer { ECDSA_SIG_free(signature) }
        var raw = Data(count: 2 * componentSize)
        let written = raw.withUnsafeMutableBytes { output in
            let base = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return (BN_bn2binpad(ECDSA_SIG_get0_r(signature), base, Int32(componentSize)),
                    BN_bn2binpad(ECDSA_SIG_get0_s(signature), base + componentSize, Int32(componentSize)))
        }
        guard written.0 == componentSize, written.1 == componentSize else {
            OpenSSLErrorQueue.clear()
            throw .componentTooLarge
        }
        return raw
    }

    /// Converts JOSE's raw `r‖s` to the DER signature OpenSSL verifies, encoding each
    /// component as OpenSSL does: the shortest big-endian form, with a leading zero byte when
    /// its top bit is set.
    package static func der(fromRaw raw: Data) throws(ConversionError) -> Data {
        guard raw.count == 2 * componentSize else { throw .wrongRawLength(raw.count) }
        let bytes = [UInt8](raw)
        let r = integerContents(bytes[..<componentSize])
        let s = integerContents(bytes[componentSize...])
        var der: [UInt8] = [0x30, UInt8(4 + r.count + s.count), 0x02, UInt8(r.count)]
        der.reserveCapacity(6 + r.count + s.count)
        der += r
        der += [0x02, UInt8(s.count)]
        der += s
        return Data(der)
    }

    /// The contents of the DER `INTEGER` whose value is the unsigned big-endian `magnitude`.
    private static func integerContents(_ magnitude: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let significant = magnitude.drop { $0 == 0 }
        guard let first = significant.first else { return [0] }
        return first & 0x80 == 0 ? significant : [0] + significant
    }
}
