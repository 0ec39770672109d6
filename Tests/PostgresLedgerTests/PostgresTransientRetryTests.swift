import PostgresLedger
import StoreCore
import Testing

/// A backoff runs PostgreSQL work again on transient errors only, as many times as it allows.
@Suite struct PostgresTransientRetryTests {
    /// An error the backoff retries.
    private static let transient = PostgresError(kind: .server, sqlState: .serializationFailure, message: "conflict", sql: nil)
    /// An error the backoff does not retry.
    private static let permanent = PostgresError(kind: .server, sqlState: .uniqueViolation, message: "duplicate", sql: nil)

    @Test("transient errors are retried up to the attempt bound, then the last one is thrown")
    func attemptsAreBounded() {
        let policy = Backoff(maximumAttempts: 3, initialDelay: .milliseconds(1), maximumDelay: .seconds(1))
        var runs = 0
        let error = #expect(throws: PostgresError.self) {
            try policy.runRetryingTransientErrors {
                runs += 1
                throw Self.transient
            }
        }
        #expect(runs == 3)
        #expect(error == Self.transient)
    }

    @Test("a permanent error is thrown at once, without running the work again")
    func permanentErrorsAreNotRetried() {
        let policy = Backoff(maximumAttempts: 5, initialDelay: .milliseconds(1), maximumDelay: .seconds(1))
        var runs = 0
        #expect(throws: PostgresError.self) {
            try policy.runRetryingTransientErrors {
                runs += 1
                throw Self.permanent
            }
        }
        #expect(runs == 1)
    }

    @Test("work that succeeds after transient failures returns its result")
    func succeedsAfterRetries() throws {
        let policy = Backoff(maximumAttempts: 5, initialDelay: .milliseconds(1), maximumDelay: .seconds(1))
        var runs = 0
        let result = try policy.runRetryingTransientErrors {
            runs += 1
            if runs < 3 { throw Self.transient }
            return "granted"
        }
        #expect(result == "granted")
        #expect(runs == 3)
    }
}
