import Foundation
import StoreCore

/// A kept refund request as `storerules ledger consumption --json` and the service print it:
/// snake_case fields, times in ISO 8601, the answer as Apple's body, and — when read with it —
/// whether and when the ledger granted its transaction (`transaction_granted`,
/// `transaction_granted_at`).
public struct ConsumptionRequestJSON: Encodable, Sendable {
    private let request: ConsumptionRequestRecord
    private let delivery: TransactionDelivery?

    /// The JSON form of `request`, with what the ledger delivered of its transaction when given.
    public init(_ request: ConsumptionRequestRecord, delivery: TransactionDelivery? = nil) {
        self.request = request
        self.delivery = delivery
    }

    private enum CodingKeys: String, CodingKey {
        case notificationUUID = "notification_uuid", transactionID = "transaction_id", originalTransactionID = "original_transaction_id"
        case reason, receivedAt = "received_at", deadline, state, answer, policyVersion = "policy_version", attempts
        case lastError = "last_error", nextAttemptAt = "next_attempt_at", answeredAt = "answered_at"
        case transactionGranted = "transaction_granted", transactionGrantedAt = "transaction_granted_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(request.notificationUUID, forKey: .notificationUUID)
        try container.encode(request.transactionID, forKey: .transactionID)
        try container.encode(request.originalTransactionID, forKey: .originalTransactionID)
        try container.encodeIfPresent(request.reason, forKey: .reason)
        try container.encode(Self.time(request.receivedDate), forKey: .receivedAt)
        try container.encode(Self.time(request.deadlineDate), forKey: .deadline)
        try container.encode(request.state.rawValue, forKey: .state)
        try container.encodeIfPresent(request.answer, forKey: .answer)
        try container.encodeIfPresent(request.policyVersion, forKey: .policyVersion)
        try container.encode(request.attempts, forKey: .attempts)
        try container.encodeIfPresent(request.lastError, forKey: .lastError)
        if request.state == .pending { try container.encode(Self.time(request.nextAttemptDate), forKey: .nextAttemptAt) }
        try container.encodeIfPresent(request.answeredDate.map(Self.time), forKey: .answeredAt)
        if let delivery {
            try container.encode(delivery.isGranted, forKey: .transactionGranted)
            try container.encodeIfPresent(delivery.grantedDate?.formatted(.iso8601), forKey: .transactionGrantedAt)
        }
    }

    /// Milliseconds since 1970 as ISO 8601.
    static func time(_ milliseconds: Int64) -> String {
        Date(millisecondsSince1970: milliseconds).formatted(.iso8601)
    }
}
