/// Why text is not a compact JWS.
public enum JWSFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The three parts of a compact JWS.
    public enum Part: String, Sendable, Hashable {
        /// The protected header.
        case header
        /// The payload.
        case payload
        /// The signature.
        case signature
    }

    /// The text does not have exactly three parts separated by `.`; carries the count found.
    case wrongPartCount(Int)
    /// A part is not unpadded base64url.
    case invalidBase64URL(Part)
    /// The header is not a JSON object with a string `alg` and a string array `x5c`.
    case invalidHeader(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .wrongPartCount(let count): "a compact JWS has 3 parts separated by '.', not \(count)"
        case .invalidBase64URL(let part): "the \(part.rawValue) is not base64url"
        case .invalidHeader(let reason): "the header is not a JWS header (\(reason))"
        }
    }
}
