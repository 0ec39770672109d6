import Foundation

/// An app account token: the UUID an app attaches to a purchase so that the App Store's
/// notifications about it find the app's customer.
///
/// A token is parsed as a UUID and written in one canonical form, lower case with hyphens, the
/// form the App Store signs. `F1A4F0F3-…` (Swift's `UUID().uuidString`) and `f1a4f0f3-…` are
/// the same token: the ledger stores and compares only the canonical form.
public struct AppAccountToken: Hashable, Sendable, CustomStringConvertible {
    /// The token's UUID.
    public let uuid: UUID

    /// The token that `text` writes as a UUID, in any case; nil when it is not one.
    public init?(_ text: String) {
        guard let uuid = UUID(uuidString: text) else { return nil }
        self.uuid = uuid
    }

    /// The token for `uuid`.
    public init(_ uuid: UUID) {
        self.uuid = uuid
    }

    /// The canonical form: lower case, with hyphens.
    public var description: String {
        uuid.uuidString.lowercased()
    }

    /// The canonical form of a token as a signed payload carries it; text that is not a UUID
    /// stays as it is, so it matches no registered customer.
    public static func canonical(_ text: String?) -> String? {
        guard let text else { return nil }
        return AppAccountToken(text)?.description ?? text
    }
}
