import Foundation

/// A payload the App Store signs as a compact JWS: a transaction, a renewal info or a
/// notification.
public protocol SignedPayload: Codable, Sendable, Equatable {
    /// When the App Store signed the payload. Without online checks, the certificate chain
    /// must be valid at this date, as in Apple's library.
    var signedDate: Date? { get }
}
