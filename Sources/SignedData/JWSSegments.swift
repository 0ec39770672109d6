import Foundation

/// The three base64url segments of compact JWS text — `header.payload.signature` — located
/// without copying or decoding them.
///
/// Each segment decodes on its own, so a verifier that recognizes a header segment it has seen
/// before need not decode it again.
package struct JWSSegments {
    /// The protected header's segment, as transmitted.
    let header: Substring
    /// The payload's segment, as transmitted.
    let payload: Substring
    /// The signature's segment, as transmitted.
    let signature: Substring
    /// The text the signature covers: `header.payload` as transmitted.
    let signingInput: Substring

    /// Locates the segments of `text`.
    ///
    /// - Throws: ``JWSFormatError/wrongPartCount(_:)`` unless `text` has exactly two `.`.
    package init(_ text: String) throws(JWSFormatError) {
        var text = text
        let dots = text.withUTF8 { bytes -> (first: Int, second: Int)? in
            guard let first = Self.separatorOffset(in: bytes, from: 0),
                  let second = Self.separatorOffset(in: bytes, from: first + 1),
                  Self.separatorOffset(in: bytes, from: second + 1) == nil
            else { return nil }
            return (first, second)
        }
        guard let dots else {
            throw .wrongPartCount(text.utf8.count(where: { $0 == Self.separator }) + 1)
        }
        let utf8 = text.utf8
        let firstDot = utf8.index(utf8.startIndex, offsetBy: dots.first)
        let secondDot = utf8.index(utf8.startIndex, offsetBy: dots.second)
        header = text[..<firstDot]
        payload = text[utf8.index(after: firstDot)..<secondDot]
        signature = text[utf8.index(after: secondDot)...]
        signingInput = text[..<secondDot]
    }

    /// The decoded header, payload and signature.
    ///
    /// The segments are checked in this order: the header's base64url, the payload's, the
    /// signature's, then the header's JSON. A `knownHeader` — decoded earlier from a header
    /// segment identical to this one — is returned as it is, without decoding the header again.
    ///
    /// - Throws: ``JWSFormatError/invalidBase64URL(_:)`` naming the first segment that is not
    ///   base64url, or ``JWSFormatError/invalidHeader(_:)``.
    package func decoded(knownHeader: JWSDecodedHeader? = nil) throws(JWSFormatError) -> (header: JWSDecodedHeader, payload: Data, signature: Data) {
        if let knownHeader {
            return (knownHeader, try decode(.payload), try decode(.signature))
        }
        let headerJSON = try decode(.header)
        let payload = try decode(.payload)
        let signature = try decode(.signature)
        do {
            return (try JSONDecoder().decode(JWSDecodedHeader.self, from: headerJSON), payload, signature)
        } catch {
            throw .invalidHeader(DecodingFailure.summary(of: error))
        }
    }

    /// The decoded bytes of one segment.
    private func decode(_ part: JWSFormatError.Part) throws(JWSFormatError) -> Data {
        let segment = switch part {
        case .header: header
        case .payload: payload
        case .signature: signature
        }
        guard let bytes = Base64URL.decode(segment) else { throw .invalidBase64URL(part) }
        return bytes
    }

    /// The `.` between segments.
    private static let separator = UInt8(ascii: ".")

    /// The offset of the first `.` in `bytes` at or after `start`, found with `memchr`.
    private static func separatorOffset(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + start, Int32(separator), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
