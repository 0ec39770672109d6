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

    /// The server's clock, from the `Date` of its answer to a one-millisecond notification
    /// history request at this machine's time (whatever the answer's status); this machine's
    /// time when the answer has no `Date`. A local store's clock may run ahead of the wall clock.
    public func serverNow() async throws(AppStoreServerAPIError) -> Date {
        let now = Date()
        let milliseconds = now.millisecondsSince1970
        let body: Data
        do {
            body = try JSONEncoder().encode(NotificationHistoryRequest(startDate: milliseconds - 1, endDate: milliseconds))
        } catch {
            throw .invalidArgument("a notification history request cannot be written: \(error)")
        }
        let endpoint = AppStoreServerAPIEndpoint.notificationHistory
        let request = AppStoreServerAPIRequest(method: endpoint.method, path: endpoint.path, body: body)
        let answer = try await transport.send(request, to: baseURL, headers: try requestHeaders())
        return answer.header("Date").flatMap(HTTPDateHeader.date) ?? now
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
