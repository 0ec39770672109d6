import Foundation
import StoreCore

/// The text of a policy and the name errors give it.
public struct PolicySource: Sendable, Equatable {
    /// The Lua source.
    public var text: String
    /// The name errors and tracebacks use, such as `policy.lua`.
    public var chunkName: String
    /// The script's digest: the first 16 hex digits of the SHA-256 of the text. The policy's
    /// version also covers its catalog (``PolicyVersion``).
    public let digest: String

    /// Creates a source from text.
    public init(text: String, chunkName: String = "policy.lua") {
        self.text = text
        self.chunkName = chunkName
        digest = String(SHA256Digest.hex(of: text).prefix(16))
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
}
