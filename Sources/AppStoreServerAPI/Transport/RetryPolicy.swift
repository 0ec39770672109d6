import Foundation

/// How an ``AppStoreServerAPIClient`` tries a failed request again: only failures that can
/// succeed later (``AppStoreServerAPIError/isRetryable``), at most ``maximumAttempts`` times in
/// all, waiting an exponentially growing, jittered delay, or what `Retry-After` asks when it
/// asks for no more than ``maximumDelay``.
public struct RetryPolicy: Sendable, Equatable {
    /// The most attempts, the first included; 1 never retries.
    public var maximumAttempts: Int
    /// The delay before the first retry, before jitter.
    public var initialDelay: Duration
    /// The longest delay between two attempts.
    public var maximumDelay: Duration

    /// A policy; `maximumAttempts` is at least 1.
    public init(maximumAttempts: Int = 4, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(10)) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// Four attempts, from half a second to at most ten between them.
    public static let standard = RetryPolicy()
    /// One attempt: a failure is answered at once.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// The wait before attempt `attempt + 1` after attempt `attempt` (1-based) failed, given the
    /// answer's `Retry-After` seconds if it had one: between half and all of the exponential step.
    public func delay(after attempt: Int, retryAfter: String?) -> Duration {
        if let retryAfter, let seconds = Int(retryAfter.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
            return min(.seconds(seconds), maximumDelay)
        }
        let step = initialDelay * (1 << min(max(attempt - 1, 0), 20))
        let ceiling = min(step, maximumDelay)
        let milliseconds = Int(ceiling.components.seconds * 1000 + ceiling.components.attoseconds / 1_000_000_000_000_000)
        return .milliseconds(Int.random(in: (milliseconds / 2)...max(milliseconds / 2, milliseconds)))
    }
}
