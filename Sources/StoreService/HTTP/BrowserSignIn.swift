import Foundation

/// How a browser signs in to the operator page: HTTP Basic, any user name, the `admin` key as
/// the password, asked for by the browser's own prompt. Offered only to a request that comes
/// privately (``HTTPRequest/comesPrivately``: through TLS, or over loopback), since Basic
/// credentials travel in clear otherwise; every other route takes only `Bearer`.
public enum BrowserSignIn {
    /// The `WWW-Authenticate` challenge that makes a browser ask for the credentials.
    public static let challenge = #"Basic realm="StoreRules""#

    /// The password of a `Basic BASE64(user:password)` header value (the scheme in any case),
    /// or nil when the value is not Basic credentials with a non-empty password.
    public static func password(fromAuthorization value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "basic " else { return nil }
        let encoded = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let decoded = Data(base64Encoded: encoded), let credentials = String(data: decoded, encoding: .utf8),
              let colon = credentials.firstIndex(of: ":") else { return nil }
        let password = String(credentials[credentials.index(after: colon)...])
        return password.isEmpty ? nil : password
    }
}
