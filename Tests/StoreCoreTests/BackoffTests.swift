import StoreCore
import Testing

/// The one backoff: steps double from the initial delay up to the cap, and a jittered pause is
/// drawn between half of its step and all of it.
@Suite struct BackoffTests {
    @Test("the step doubles from the initial delay and stops at the cap")
    func stepsDoubleUpToTheCap() {
        let backoff = Backoff(maximumAttempts: 10, initialDelay: .milliseconds(10), maximumDelay: .milliseconds(100))
        let steps = (1...6).map { backoff.step(beforeRetry: $0) }
        #expect(steps == [.milliseconds(10), .milliseconds(20), .milliseconds(40), .milliseconds(80), .milliseconds(100), .milliseconds(100)])
        #expect(backoff.step(beforeRetry: 1000) == .milliseconds(100))
    }

    @Test("each jittered pause is drawn between half its step and all of it, not always the same")
    func jitterStaysInBounds() {
        let backoff = Backoff(maximumAttempts: 5, initialDelay: .milliseconds(40), maximumDelay: .seconds(1))
        var generator = SystemRandomNumberGenerator()
        let pauses = (0..<200).map { _ in backoff.delay(beforeRetry: 2, using: &generator) }
        #expect(pauses.allSatisfy { $0 >= .milliseconds(40) && $0 <= .milliseconds(80) })
        #expect(Set(pauses).count > 1)
    }

    @Test("without jitter every pause is its step: a minute, doubling, at most 30 minutes")
    func unjitteredPausesAreTheSteps() {
        let backoff = Backoff(maximumAttempts: .max, initialDelay: .seconds(60), maximumDelay: .seconds(30 * 60), jitter: .none)
        #expect((1...7).map { backoff.delay(beforeRetry: $0) } == [60, 120, 240, 480, 960, 1800, 1800].map { Duration.seconds($0) })
        #expect(backoff.allowsRetry(after: 1_000_000))
    }

    @Test("the attempt bound counts the first attempt; never allows no retry")
    func attemptsAreBounded() {
        let backoff = Backoff(maximumAttempts: 3, initialDelay: .milliseconds(1), maximumDelay: .seconds(1))
        #expect([1, 2, 3].map(backoff.allowsRetry(after:)) == [true, true, false])
        #expect(!Backoff.never.allowsRetry(after: 1))
    }
}
