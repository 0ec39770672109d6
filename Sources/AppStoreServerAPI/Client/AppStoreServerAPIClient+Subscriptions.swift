import Foundation
import StoreCore

extension AppStoreServerAPIClient {
    /// Get All Subscription Statuses, optionally only those with the given `status` values
    /// (1 active … 5 revoked); every transaction and renewal info verified.
    public func subscriptionStatuses(_ transactionID: String, statuses: [Int] = []) async throws(AppStoreServerAPIError) -> SubscriptionStatuses {
        for status in statuses where !(1...5).contains(status) {
            throw .invalidArgument("a subscription status is 1 (active) to 5 (revoked), not \(status)")
        }
        let answer = try await call(.subscriptionStatuses(transactionID: transactionID), query: statuses.map { .init("status", String($0)) },
                                    answer: StatusResponse.self)
        var groups: [SubscriptionStatuses.Group] = []
        for item in answer.data ?? [] {
            var subscriptions: [SubscriptionStatuses.Subscription] = []
            for last in item.lastTransactions ?? [] {
                guard let transaction = last.signedTransactionInfo, let renewal = last.signedRenewalInfo else {
                    throw .malformedResponse(endpoint: "GET /inApps/v1/subscriptions/{id}",
                                             reason: "a subscription has no signedTransactionInfo or signedRenewalInfo")
                }
                subscriptions.append(SubscriptionStatuses.Subscription(
                    status: last.status, originalTransactionID: last.originalTransactionId,
                    transaction: try verifiedTransaction(transaction), renewalInfo: try verifiedRenewalInfo(renewal)))
            }
            groups.append(SubscriptionStatuses.Group(groupID: item.subscriptionGroupIdentifier, subscriptions: subscriptions))
        }
        return SubscriptionStatuses(groups: groups)
    }

    /// Extend a Subscription Renewal Date for one subscriber.
    public func extendRenewalDate(originalTransactionID: String, _ request: ExtendRenewalDateRequest) async throws(AppStoreServerAPIError)
        -> ExtendRenewalDateResponse {
        try Self.check(days: request.extendByDays, reason: request.extendReasonCode, requestIdentifier: request.requestIdentifier)
        return try await call(.extendRenewalDate(originalTransactionID: originalTransactionID), body: request,
                              answer: ExtendRenewalDateResponse.self)
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers of a product; answers the
    /// request identifier to ask its status with.
    public func extendRenewalDateForAllActiveSubscribers(_ request: MassExtendRenewalDateRequest) async throws(AppStoreServerAPIError) -> String {
        try Self.check(days: request.extendByDays, reason: request.extendReasonCode, requestIdentifier: request.requestIdentifier)
        let answer = try await call(.massExtendRenewalDate, body: request, answer: MassExtendRenewalDateResponse.self)
        return answer.requestIdentifier ?? request.requestIdentifier
    }

    /// Get Status of Subscription Renewal Date Extensions.
    public func massExtensionStatus(productID: String, requestIdentifier: String) async throws(AppStoreServerAPIError)
        -> MassExtendRenewalDateStatusResponse {
        try await call(.massExtendStatus(productID: productID, requestIdentifier: requestIdentifier),
                       answer: MassExtendRenewalDateStatusResponse.self)
    }

    static func check(days: Int, reason: Int, requestIdentifier: String) throws(AppStoreServerAPIError) {
        guard (1...90).contains(days) else { throw .invalidArgument("extendByDays is 1–90, not \(days)") }
        guard (0...3).contains(reason) else { throw .invalidArgument("extendReasonCode is 0–3, not \(reason)") }
        guard !requestIdentifier.isEmpty, requestIdentifier.count <= 128 else {
            throw .invalidArgument("requestIdentifier is 1–128 characters")
        }
    }
}
