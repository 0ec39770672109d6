import PostgresLedger
import Testing

@Suite struct PostgresRetryPolicyTests {
    /// An error the policy retries.
    private static let transient = PostgresError(kind: .server, sqlState: .serializationFailure, message: "conflict", sql: nil)
    /// An error the policy does not retry.
    private static let permanent = PostgresError(kind: .server, sqlState: .uniqueViolation, message: "duplicate", sql: nil)

    @Test("the longest pause doubles from the initial delay and stops at the cap")
    func backoffDoublesUpToTheCap() {
        let policy = PostgresRetryPolicy(maxAttempts: 10, initialDelay: .milliseconds(10), maxDelay: .milliseconds(100))
        let ceilings = (1...6).map { policy.delayCeiling(beforeRetry: $0) }
        #expect(ceilings == [.milliseconds(10), .milliseconds(20), .milliseconds(40), .milliseconds(80), .milliseconds(100), .milliseconds(100)])
        #expect(policy.delayCeiling(beforeRetry: 1000) == .milliseconds(100))
    }

    @Test("each pause is drawn between half the longest pause and all of it, not always the same")
    func jitterStaysInBounds() {
        let policy = PostgresRetryPolicy(initialDelay: .milliseconds(40), maxDelay: .seconds(1))
        var generator = SystemRandomNumberGenerator()
        let pauses = (0..<200).map { _ in policy.delay(beforeRetry: 2, using: &generator) }
        #expect(pauses.allSatisfy { $0 >= .milliseconds(40) && $0 <= .milliseconds(80) })
        #expect(Set(pauses).count > 1)
    }

    @Test("transient errors are retried up to the attempt bound, then the last one is thrown")
    func attemptsAreBounded() {
        let policy = PostgresRetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(1))
        var runs = 0
        let error = #expect(throws: PostgresError.self) {
            try policy.run {
                runs += 1
                throw Self.transient
            }
        }
        #expect(runs == 3)
        #expect(error == Self.transient)
    }

    @Test("a permanent error is thrown at once, without running the work again")
    func permanentErrorsAreNotRetried() {
        let policy = PostgresRetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(1))
        var runs = 0
        #expect(throws: PostgresError.self) {
            try policy.run {
                runs += 1
                throw Self.permanent
            }
        }
        #expect(runs == 1)
    }

    @Test("work that succeeds after transient failures returns its result")
    func succeedsAfterRetries() throws {
        let policy = PostgresRetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(1))
        var runs = 0
        let result = try policy.run {
            runs += 1
            if runs < 3 { throw Self.transient }
            return "granted"
        }
        #expect(result == "granted")
        #expect(runs == 3)
    }
}
