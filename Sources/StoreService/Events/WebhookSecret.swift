import Foundation
import StoreCore

/// The secret outgoing events are signed with, as the Standard Webhooks specification writes
/// it: `whsec_` and the base64 of 24 to 64 random bytes.
///
/// Its description never shows the key, so a secret printed or logged by mistake stays secret.
public struct WebhookSecret: Sendable, CustomStringConvertible {
    /// The key bytes.
    let key: [UInt8]

    /// The shortest and longest keys the specification allows, in bytes.
    public static let keyLengths = 24...64

    /// The secret `text` writes (surrounding whitespace ignored).
    ///
    /// - Throws: ``WebhookSecretError`` when the text lacks the `whsec_` prefix, is not base64,
    ///   or holds a key of another length.
    public init(_ text: String) throws(WebhookSecretError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("whsec_") else { throw .missingPrefix }
        guard let key = Data(base64Encoded: String(trimmed.dropFirst("whsec_".count))) else { throw .notBase64 }
        guard Self.keyLengths.contains(key.count) else { throw .keyLength(key.count) }
        self.key = Array(key)
    }

    /// A new secret of 32 random bytes from the system's generator.
    public static func generate() -> WebhookSecret {
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        // The text is well formed by construction.
        return try! WebhookSecret("whsec_" + Data(key).base64EncodedString())
    }

    /// The secret as the specification writes it, for a file a receiver reads.
    public var text: String { "whsec_" + Data(key).base64EncodedString() }

    /// Never the key.
    public var description: String { "whsec_… (\(key.count)-byte key)" }

    /// The `webhook-signature` header of a message: `v1,` and the base64 of the HMAC-SHA256 of
    /// `id.timestamp.body`.
    public func signature(id: String, timestamp: Int64, body: String) -> String {
        "v1," + Data(HMACSHA256.mac(key: key, message: Array("\(id).\(timestamp).\(body)".utf8))).base64EncodedString()
    }
}

extension WebhookSecret: CustomReflectable {
    /// No children: a dump or a mirror shows no key either.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// Why a webhook secret was refused.
public enum WebhookSecretError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text does not begin with `whsec_`.
    case missingPrefix
    /// What follows `whsec_` is not base64.
    case notBase64
    /// The key has this many bytes, outside 24…64.
    case keyLength(Int)

    public var description: String {
        switch self {
        case .missingPrefix: "a webhook secret begins with whsec_ (make one with `storerules events secret`)"
        case .notBase64: "what follows whsec_ is not base64"
        case .keyLength(let count): "the key holds \(count) bytes; the Standard Webhooks specification asks for 24 to 64"
        }
    }
}
