/// How work that failed is tried again: at most ``maximumAttempts`` attempts in all, the pause
/// before each retry doubling from ``initialDelay`` up to ``maximumDelay``, and drawn at random
/// between half of that and all of it when ``jitter`` says so, so processes that failed together
/// do not retry together.
///
/// One type for every retry StoreRules makes: the App Store Server API client's requests, a
/// PostgreSQL transaction that met a transient error, and a refund request's answer to Apple.
public struct Backoff: Hashable, Sendable {
    /// Whether a pause is the doubling step itself or drawn below it.
    public enum Jitter: Hashable, Sendable {
        /// The pause is the step: the same schedule every time.
        case none
        /// The pause is drawn uniformly between half of the step and all of it.
        case halfToFull
    }

    /// The most attempts, the first included; 1 never retries.
    public var maximumAttempts: Int
    /// The step before the first retry.
    public var initialDelay: Duration
    /// The longest step.
    public var maximumDelay: Duration
    /// How a pause is drawn from its step.
    public var jitter: Jitter

    /// A backoff of `maximumAttempts` attempts, pausing up to `initialDelay` before the first
    /// retry and doubling up to `maximumDelay`, with `jitter` (half to full by default).
    ///
    /// - Precondition: `maximumAttempts` is at least 1, and the delays are not negative.
    public init(maximumAttempts: Int, initialDelay: Duration, maximumDelay: Duration, jitter: Jitter = .halfToFull) {
        precondition(maximumAttempts >= 1, "a backoff runs the work at least once")
        precondition(initialDelay >= .zero && maximumDelay >= .zero, "backoff delays cannot be negative")
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = jitter
    }

    /// One attempt: a failure is answered at once.
    public static let never = Backoff(maximumAttempts: 1, initialDelay: .zero, maximumDelay: .zero)

    /// Whether another attempt follows a failed attempt number `attempt` (1 for the first).
    public func allowsRetry(after attempt: Int) -> Bool {
        attempt < maximumAttempts
    }

    /// The step before retry number `retry` (1 for the pause after the first failure):
    /// `initialDelay × 2^(retry − 1)`, at most ``maximumDelay``.
    public func step(beforeRetry retry: Int) -> Duration {
        let doublings = min(max(retry - 1, 0), 40)
        return min(initialDelay * (Int64(1) << doublings), maximumDelay)
    }

    /// The pause before retry number `retry`: its ``step(beforeRetry:)``, or with
    /// ``Jitter/halfToFull`` a pause drawn between half of it and all of it.
    public func delay(beforeRetry retry: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let step = step(beforeRetry: retry)
        guard jitter == .halfToFull, step > .zero else { return step }
        return Duration(attoseconds: Int128.random(in: (step.attoseconds / 2)...step.attoseconds, using: &generator))
    }

    /// The pause before retry number `retry`, drawn with the system's generator.
    public func delay(beforeRetry retry: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(beforeRetry: retry, using: &generator)
    }
}
