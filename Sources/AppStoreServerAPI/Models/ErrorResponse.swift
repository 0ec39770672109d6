/// The body of every failure the App Store Server API answers: `{"errorCode", "errorMessage"}`.
public struct ErrorResponse: Codable, Sendable, Equatable {
    /// Apple's numeric code.
    public var errorCode: Int
    /// Apple's message.
    public var errorMessage: String

    /// A failure's body.
    public init(errorCode: Int, errorMessage: String) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}
