/// A refund request Apple asked about (a `CONSUMPTION_REQUEST` notification), kept in the
/// ledger with what was decided and sent, so every process of a fleet answers it once and an
/// operator sees each answer and failure (`storerules ledger consumption`).
public struct ConsumptionRequestRecord: Sendable, Hashable {
    /// Where answering a request got to.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Not answered yet: waiting for its next attempt, or for the ledger to grant its transaction.
        case pending
        /// The answer was sent and Apple accepted it.
        case answered
        /// Nothing is sent: the policy has no `consumption` hook, or it answered nil.
        case unanswered
        /// Apple refused the answer for good (a request Apple will not accept again).
        case refused
        /// Apple's window for an answer closed before one was accepted.
        case expired
    }

    /// The notification's UUID: the request's identity.
    public let notificationUUID: String
    /// The transaction the customer asked a refund of.
    public let transactionID: String
    /// Its original transaction id.
    public let originalTransactionID: String
    /// The notification's signed transaction, verbatim.
    public let transactionJWS: String
    /// Why the customer asked, in Apple's words (`consumptionRequestReason`), when Apple said.
    public let reason: String?
    /// When the request was recorded, in milliseconds since 1970.
    public let receivedDate: Int64
    /// When Apple's window for an answer closes, in milliseconds since 1970.
    public let deadlineDate: Int64
    /// Where answering it got to.
    public var state: State
    /// What the policy decided to send, once it decided.
    public var answer: ConsumptionAnswer?
    /// The policy version that decided.
    public var policyVersion: String?
    /// How many attempts were made to decide and send.
    public var attempts: Int
    /// Why the last attempt failed, why nothing is sent, or what the decision waits for (the
    /// transaction's grant) or was made without (`decided with tx.granted = false: …`).
    public var lastError: String?
    /// When the next attempt may start, in milliseconds since 1970 (an attempt under way holds
    /// the request until then).
    public var nextAttemptDate: Int64
    /// When Apple accepted the answer, in milliseconds since 1970.
    public var answeredDate: Int64?

    /// How long Apple waits for an answer after it signs the request: 12 hours.
    public static let answerWindowMilliseconds: Int64 = 12 * 3_600_000

    /// Describes a request.
    public init(notificationUUID: String, transactionID: String, originalTransactionID: String, transactionJWS: String, reason: String?,
                receivedDate: Int64, deadlineDate: Int64, state: State = .pending, answer: ConsumptionAnswer? = nil,
                policyVersion: String? = nil, attempts: Int = 0, lastError: String? = nil, nextAttemptDate: Int64? = nil,
                answeredDate: Int64? = nil) {
        self.notificationUUID = notificationUUID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.transactionJWS = transactionJWS
        self.reason = reason
        self.receivedDate = receivedDate
        self.deadlineDate = deadlineDate
        self.state = state
        self.answer = answer
        self.policyVersion = policyVersion
        self.attempts = attempts
        self.lastError = lastError
        self.nextAttemptDate = nextAttemptDate ?? receivedDate
        self.answeredDate = answeredDate
    }
}
