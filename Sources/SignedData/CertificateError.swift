/// Why bytes or text could not be read as an X.509 certificate.
public enum CertificateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not one complete DER-encoded certificate.
    case invalidDER(String)
    /// The text holds no PEM `CERTIFICATE` block.
    case noCertificateInPEM
    /// A PEM `CERTIFICATE` block could not be read.
    case invalidPEM(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidDER(let reason): "not a DER-encoded X.509 certificate (\(reason))"
        case .noCertificateInPEM: "no PEM CERTIFICATE block found"
        case .invalidPEM(let reason): "unreadable PEM certificate (\(reason))"
        }
    }
}
