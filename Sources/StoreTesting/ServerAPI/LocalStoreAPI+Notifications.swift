import AppStoreServerAPI
import Foundation
import StoreCore

extension LocalStoreAPI {
    /// How far back notification history reaches, as Apple's: 180 days of the store's clock.
    static let notificationHistoryDays: TimeInterval = 180

    /// A page of the notifications sent in the window, filtered as asked.
    func notificationHistory(_ request: NotificationHistoryRequest, query: QueryArguments) throws -> NotificationHistoryResponse {
        guard let start = request.startDate, start >= 0 else { throw ServerAPIFailure.badRequest(.invalidStartDate, "startDate is required") }
        guard let end = request.endDate, end >= 0 else { throw ServerAPIFailure.badRequest(.invalidEndDate, "endDate is required") }
        guard start <= end else { throw ServerAPIFailure.badRequest(.startDateAfterEndDate, "startDate is after endDate") }
        let now = try store.currentTime()
        guard start >= now.addingTimeInterval(-Self.notificationHistoryDays * 86_400).millisecondsSince1970 else {
            throw ServerAPIFailure.badRequest(.startDateTooFarInPast, "startDate is more than 180 days ago")
        }
        if request.notificationType != nil, request.transactionId != nil {
            throw ServerAPIFailure.badRequest(.multipleFiltersSupplied, "give notificationType or transactionId, not both")
        }
        if let type = request.notificationType, NotificationTypeV2.knownValues.allSatisfy({ $0.rawValue != type }) {
            throw ServerAPIFailure.badRequest(.invalidNotificationType, "\(type) is not a notification type")
        }
        let customerID = try request.transactionId.map { try store.apiTransaction($0).record.customerID }
        var after = 0
        if let token = try query.single("paginationToken", invalid: .invalidPaginationToken) {
            guard let sequence = PageToken.sequence(ofPagination: token) else {
                throw ServerAPIFailure.badRequest(.invalidPaginationToken, "paginationToken \(token) is not one this API gave")
            }
            after = sequence
        }
        let notifications = try store.apiNotifications(start: start, end: end, after: after, type: request.notificationType,
                                                       subtype: request.notificationSubtype, customerID: customerID,
                                                       onlyFailures: request.onlyFailures ?? false)
        let page = Array(notifications.prefix(Self.pageSize))
        let hasMore = notifications.count > page.count
        var items: [NotificationHistoryResponseItem] = []
        for notification in page {
            let attempts = try store.sendAttempts(ofNotification: notification.sequence)
                .map { SendAttemptItem(attemptDate: $0.date, sendAttemptResult: $0.result) }
            items.append(NotificationHistoryResponseItem(signedPayload: notification.signedPayload, sendAttempts: attempts))
        }
        return NotificationHistoryResponse(
            paginationToken: hasMore ? page.last.map { PageToken.pagination(after: $0.sequence) } : nil, hasMore: hasMore,
            notificationHistory: items)
    }
}
