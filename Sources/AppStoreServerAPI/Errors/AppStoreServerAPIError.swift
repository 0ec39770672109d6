import StoreCore

/// Why a call to the App Store Server API failed.
public enum AppStoreServerAPIError: Error, Equatable, CustomStringConvertible {
    /// The server answered a failure: its HTTP status, and Apple's `errorCode` and
    /// `errorMessage` when the body carried them as JSON.
    case api(status: Int, code: APIErrorCode?, message: String?)
    /// The request could not be sent or no answer came (connection refused, timeout, TLS).
    case transport(String)
    /// A success whose body is not the JSON the endpoint answers.
    case malformedResponse(endpoint: String, reason: String)
    /// A signed item in a success did not verify: nothing in the response was used.
    case verification(VerificationError)
    /// An argument the request cannot carry (an empty id, days outside 1–90, …), named.
    case invalidArgument(String)
    /// The bearer token could not be signed.
    case signing(String)

    /// Whether trying the same request again can succeed: a documented retryable code, `429`,
    /// a `5xx` without a code, or a transport failure.
    public var isRetryable: Bool {
        switch self {
        case .api(let status, let code, _):
            if let code { return code.isRetryable }
            return status == 429 || status >= 500
        case .transport:
            return true
        case .malformedResponse, .verification, .invalidArgument, .signing:
            return false
        }
    }

    /// The documented code, when the failure carried one.
    public var code: APIErrorCode? {
        if case .api(_, let code, _) = self { return code }
        return nil
    }

    /// A sentence naming what failed, with Apple's code and message when there were some.
    public var description: String {
        switch self {
        case .api(let status, let code, let message):
            var text = "the App Store Server API answered \(status)"
            if let code { text += ", error \(code)" }
            if let message, !message.isEmpty { text += ": \(message)" }
            return text
        case .transport(let reason): return "the App Store Server API could not be reached: \(reason)"
        case .malformedResponse(let endpoint, let reason): return "the answer of \(endpoint) is not what the API sends: \(reason)"
        case .verification(let error): return "a signed item in the App Store Server API's answer did not verify: \(error)"
        case .invalidArgument(let reason): return reason
        case .signing(let reason): return "the App Store Server API token could not be signed: \(reason)"
        }
    }
}
