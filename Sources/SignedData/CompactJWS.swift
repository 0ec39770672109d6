import Foundation

/// A JSON Web Signature in compact serialization: `header.payload.signature`, each part
/// base64url without padding.
///
/// Parsing checks only the form; ``SignedDataVerifier`` decides whether to trust it.
public struct CompactJWS: Sendable, Hashable {
    /// The decoded protected header.
    public let header: JWSDecodedHeader
    /// The payload bytes, JSON for App Store data.
    public let payload: Data
    /// The signature bytes; for ES256, the 64-byte `r‖s`.
    public let signature: Data
    /// The JWS text.
    public let compactSerialization: String

    /// Parses compact JWS text.
    public init(parsing text: String) throws(JWSFormatError) {
        (header, payload, signature) = try JWSSegments(text).decoded()
        compactSerialization = text
    }

    /// Decodes the payload with ``SignedPayloadJSON``; throws the decoder's `DecodingError`.
    public func decodePayload<Payload: Decodable>(as type: Payload.Type) throws -> Payload {
        try SignedPayloadJSON.decode(type, from: payload)
    }

    /// Signs `payload` with ES256 under `header`, whose `alg` should say `ES256`.
    package static func signES256(payload: Data, header: JWSDecodedHeader, key: ECKey) throws(OpenSSLFailure) -> CompactJWS {
        let headerJSON: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            headerJSON = try encoder.encode(header)
        } catch {
            throw OpenSSLFailure("encoding a JWS header: \(error)")
        }
        let signingInput = Base64URL.encode(headerJSON) + "." + Base64URL.encode(payload)
        let derSignature = try key.signSHA256(Data(signingInput.utf8))
        let rawSignature: Data
        do {
            rawSignature = try ES256Signature.raw(fromDER: derSignature)
        } catch {
            throw OpenSSLFailure("converting an ECDSA signature to raw form: \(error)")
        }
        let text = signingInput + "." + Base64URL.encode(rawSignature)
        do {
            return try CompactJWS(parsing: text)
        } catch {
            throw OpenSSLFailure("re-reading a JWS just signed: \(error)")
        }
    }
}
