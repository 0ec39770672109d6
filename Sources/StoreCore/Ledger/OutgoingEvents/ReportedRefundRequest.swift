import Foundation

/// A refund request as ``OutgoingEventType/refundRequestAnswered`` reports it.
public struct ReportedRefundRequest: Sendable, Hashable, Codable {
    /// The UUID of the `CONSUMPTION_REQUEST` notification that asked.
    public var notificationUUID: String
    /// The transaction whose refund was requested.
    public var transactionID: String
    /// How the request ended: `answered`, `unanswered`, `refused` or `expired`.
    public var state: String
    /// Why the customer asked, as Apple gave it.
    public var reason: String?
    /// The version of the policy that answered.
    public var policyVersion: String?

    /// The report of `request`.
    public init(_ request: ConsumptionRequestRecord) {
        notificationUUID = request.notificationUUID
        transactionID = request.transactionID
        state = request.state.rawValue
        reason = request.reason
        policyVersion = request.policyVersion
    }

    private enum CodingKeys: String, CodingKey {
        case notificationUUID = "notification_uuid", transactionID = "transaction_id", state, reason
        case policyVersion = "policy_version"
    }
}
