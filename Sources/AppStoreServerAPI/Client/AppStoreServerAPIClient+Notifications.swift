import Foundation
import StoreCore

extension AppStoreServerAPIClient {
    /// One page of Get Notification History, every notification verified.
    public func notificationHistoryPage(_ request: NotificationHistoryRequest, paginationToken: String? = nil) async throws(AppStoreServerAPIError)
        -> NotificationHistoryPage {
        let answer = try await call(.notificationHistory, query: paginationToken.map { [.init("paginationToken", $0)] } ?? [],
                                    body: request, answer: NotificationHistoryResponse.self)
        var items: [NotificationHistoryPage.Item] = []
        for item in answer.notificationHistory ?? [] {
            guard let signed = item.signedPayload else {
                throw .malformedResponse(endpoint: AppStoreServerAPIEndpoint.notificationHistory.name, reason: "an item has no signedPayload")
            }
            items.append(NotificationHistoryPage.Item(notification: try verifiedNotification(signed), sendAttempts: item.sendAttempts ?? []))
        }
        return NotificationHistoryPage(paginationToken: answer.paginationToken, hasMore: answer.hasMore ?? false, items: items)
    }

    /// Get Notification History as a sequence of pages.
    public func notificationHistory(_ request: NotificationHistoryRequest, from paginationToken: String? = nil) -> Pages<NotificationHistoryPage> {
        Pages(start: paginationToken) { [self] token throws(AppStoreServerAPIError) in
            let page = try await notificationHistoryPage(request, paginationToken: token)
            return (page, page.hasMore ? page.paginationToken : nil)
        }
    }

    /// Request a Test Notification; answers the token to ask its status with.
    public func requestTestNotification() async throws(AppStoreServerAPIError) -> String {
        let answer = try await call(.requestTestNotification, answer: SendTestNotificationResponse.self)
        guard let token = answer.testNotificationToken else {
            throw .malformedResponse(endpoint: AppStoreServerAPIEndpoint.requestTestNotification.name, reason: "it has no testNotificationToken")
        }
        return token
    }

    /// Get Test Notification Status: the test notification, verified, and its send attempts.
    public func testNotificationStatus(_ token: String) async throws(AppStoreServerAPIError) -> NotificationHistoryPage.Item {
        let endpoint = AppStoreServerAPIEndpoint.testNotificationStatus(token: token)
        let answer = try await call(endpoint, answer: CheckTestNotificationResponse.self)
        guard let signed = answer.signedPayload else { throw .malformedResponse(endpoint: endpoint.name, reason: "it has no signedPayload") }
        return NotificationHistoryPage.Item(notification: try verifiedNotification(signed), sendAttempts: answer.sendAttempts ?? [])
    }
}
