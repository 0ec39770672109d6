import Foundation
import Synchronization

/// Who may call which route: the API keys of a keys file, re-read on request, or nobody
/// checked at all (a server that then listens on loopback only).
public final class AccessControl: Sendable {
    /// What checking one request's credentials found.
    public enum Verdict: Sendable, Equatable {
        /// The request may go on.
        case allowed
        /// No key, or one the keyring does not hold: `401`.
        case unauthenticated
        /// A known key of another role: `403`.
        case forbidden(ServiceRole)
    }

    /// The keys file, when keys are checked.
    public let keysPath: String?
    private let keyring: Mutex<APIKeyring?>

    /// Checks the keys in the file at `path`.
    ///
    /// - Throws: ``APIKeyringError`` when the file cannot be read or holds a wrong line.
    public init(keysAt path: String) throws(APIKeyringError) {
        keysPath = path
        keyring = Mutex(try APIKeyring(contentsOf: path))
    }

    /// Checks the keys of `keyring`, which no file backs.
    public init(keyring: APIKeyring) {
        keysPath = nil
        self.keyring = Mutex(keyring)
    }

    private init() {
        keysPath = nil
        keyring = Mutex(nil)
    }

    /// No keys are checked: every request is allowed.
    public static let unauthenticated = AccessControl()

    /// Whether requests must present a key.
    public var checksKeys: Bool {
        keyring.withLock { $0 != nil }
    }

    /// Reads the keys file again and uses it from the next request on. A file that fails
    /// leaves the keys in use unchanged.
    ///
    /// - Throws: ``APIKeyringError`` when the file cannot be read or holds a wrong line.
    public func reloadKeys() throws(APIKeyringError) {
        guard let keysPath else { return }
        let fresh = try APIKeyring(contentsOf: keysPath)
        keyring.withLock { $0 = fresh }
    }

    /// How many keys of each role are in use (``APIKeyring/summary``); nil when none are checked.
    public var keySummary: String? {
        keyring.withLock { $0?.summary }
    }

    /// Whether a request with the `Authorization` header `authorization` may call a route
    /// that needs `role`. With `acceptingBasic`, the key may also come as the password of HTTP
    /// Basic credentials (``BrowserSignIn``), compared in the same constant time.
    public func verdict(authorization: String?, for role: ServiceRole, acceptingBasic: Bool = false) -> Verdict {
        guard let keyring = keyring.withLock({ $0 }) else { return .allowed }
        guard let authorization,
              let key = Self.bearerToken(authorization) ?? (acceptingBasic ? BrowserSignIn.password(fromAuthorization: authorization) : nil)
        else { return .unauthenticated }
        guard let granted = keyring.role(of: key) else { return .unauthenticated }
        return granted == role ? .allowed : .forbidden(granted)
    }

    /// The token of a `Bearer TOKEN` header value (the scheme in any case), else nil.
    static func bearerToken(_ value: String) -> String? {
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let bytes = value.utf8
        let scheme = bytes.drop(while: isBlank)
        guard scheme.count > 7, scheme.prefix(6).elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }),
              scheme.dropFirst(6).first == UInt8(ascii: " ") else { return nil }
        var token = scheme.dropFirst(7).drop(while: isBlank)
        while let last = token.last, isBlank(last) { token = token.dropLast() }
        return token.isEmpty ? nil : String(token)
    }
}
