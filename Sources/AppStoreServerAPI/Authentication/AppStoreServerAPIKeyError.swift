/// Why an App Store Server API key cannot be used.
public enum AppStoreServerAPIKeyError: Error, Equatable, CustomStringConvertible {
    /// The `.p8` file cannot be read.
    case unreadableFile(path: String, reason: String)
    /// The text is not an unencrypted PEM private key.
    case unreadablePrivateKey(String)
    /// The key is not on P-256, the curve ES256 signs with.
    case notP256
    /// The key id is empty, too long or holds a control character.
    case invalidKeyID
    /// The issuer id is empty, too long or holds a control character.
    case invalidIssuerID

    /// A sentence for an operator, which never holds the key itself.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "the App Store Server API key \(path) cannot be read: \(reason)"
        case .unreadablePrivateKey(let reason):
            "the App Store Server API key is not an unencrypted PEM private key (a .p8 file from App Store Connect): \(reason)"
        case .notP256: "the App Store Server API key is not on P-256, the curve App Store Connect's keys use"
        case .invalidKeyID: "the App Store Server API key id is empty, over 256 bytes or holds a control character"
        case .invalidIssuerID: "the App Store Server API issuer id is empty, over 256 bytes or holds a control character"
        }
    }
}
