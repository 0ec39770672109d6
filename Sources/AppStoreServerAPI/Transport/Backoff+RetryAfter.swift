import Foundation
import StoreCore

extension Backoff {
    /// How an ``AppStoreServerAPIClient`` tries a failed request again by default: four attempts,
    /// pausing from half a second to at most ten seconds between them. Only failures that can
    /// succeed later (``AppStoreServerAPIError/isRetryable``) are tried again.
    public static let appStoreServerAPI = Backoff(maximumAttempts: 4, initialDelay: .milliseconds(500), maximumDelay: .seconds(10))

    /// The pause before retry number `retry` after an answer whose `Retry-After` said
    /// `retryAfter`: the seconds it asks for, at most ``maximumDelay``, or without a number of
    /// seconds there, ``delay(beforeRetry:)``.
    public func delay(beforeRetry retry: Int, retryAfter: String?) -> Duration {
        if let retryAfter, let seconds = Int(retryAfter.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
            return min(.seconds(seconds), maximumDelay)
        }
        return delay(beforeRetry: retry)
    }
}
