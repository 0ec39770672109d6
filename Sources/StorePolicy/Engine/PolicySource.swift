import COpenSSL
import Foundation

/// The text of a policy and the name errors give it.
public struct PolicySource: Sendable, Equatable {
    /// The Lua source.
    public var text: String
    /// The name errors and tracebacks use, such as `policy.lua`.
    public var chunkName: String
    /// The policy version: the first 16 hex digits of the SHA-256 of the text.
    public let version: String

    /// Creates a source from text.
    public init(text: String, chunkName: String = "policy.lua") {
        self.text = text
        self.chunkName = chunkName
        self.version = PolicySource.contentHash(of: text)
    }

    /// Reads a policy file.
    public init(contentsOf url: URL) throws(PolicyError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PolicyError(kind: .unreadable, script: url.lastPathComponent,
                              reason: "cannot read \(url.path): \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw PolicyError(kind: .unreadable, script: url.lastPathComponent, reason: "\(url.path) is not UTF-8 text")
        }
        self.init(text: text, chunkName: url.lastPathComponent)
    }

    private static func contentHash(of text: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var bytes = Array(text.utf8)
        _ = SHA256(&bytes, bytes.count, &digest)
        return digest.prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
