/// The body of Get Notification History: the window and the filters.
public struct NotificationHistoryRequest: Codable, Sendable, Equatable {
    /// The window's start, in milliseconds since 1970 (at most 180 days ago).
    public var startDate: Int64?
    /// The window's end, in milliseconds since 1970.
    public var endDate: Int64?
    /// Only notifications of this type.
    public var notificationType: String?
    /// Only notifications of this subtype.
    public var notificationSubtype: String?
    /// Only notifications about this transaction's customer.
    public var transactionId: String?
    /// Only notifications that never reached the server.
    public var onlyFailures: Bool?

    /// A request.
    public init(startDate: Int64?, endDate: Int64?, notificationType: String? = nil, notificationSubtype: String? = nil,
                transactionId: String? = nil, onlyFailures: Bool? = nil) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}

/// A page of Get Notification History.
public struct NotificationHistoryResponse: Codable, Sendable, Equatable {
    /// The token of the next page.
    public var paginationToken: String?
    /// Whether more pages follow.
    public var hasMore: Bool?
    /// The page's notifications.
    public var notificationHistory: [NotificationHistoryResponseItem]?

    /// A page.
    public init(paginationToken: String?, hasMore: Bool?, notificationHistory: [NotificationHistoryResponseItem]?) {
        self.paginationToken = paginationToken
        self.hasMore = hasMore
        self.notificationHistory = notificationHistory
    }
}

/// One notification with its send attempts.
public struct NotificationHistoryResponseItem: Codable, Sendable, Equatable {
    /// The notification's signed payload.
    public var signedPayload: String?
    /// Every attempt to send it, oldest first.
    public var sendAttempts: [SendAttemptItem]?

    /// An item.
    public init(signedPayload: String?, sendAttempts: [SendAttemptItem]?) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}

/// One attempt to send a notification, and how it ended.
public struct SendAttemptItem: Codable, Sendable, Equatable {
    /// When, in milliseconds since 1970.
    public var attemptDate: Int64?
    /// `SUCCESS`, `TIMED_OUT`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, ….
    public var sendAttemptResult: String?

    /// An attempt.
    public init(attemptDate: Int64?, sendAttemptResult: String?) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}

/// The answer of Request a Test Notification.
public struct SendTestNotificationResponse: Codable, Sendable, Equatable {
    /// The token to ask its status with.
    public var testNotificationToken: String?

    /// An answer.
    public init(testNotificationToken: String?) {
        self.testNotificationToken = testNotificationToken
    }
}

/// The answer of Get Test Notification Status.
public struct CheckTestNotificationResponse: Codable, Sendable, Equatable {
    /// The test notification's signed payload.
    public var signedPayload: String?
    /// Every attempt to send it.
    public var sendAttempts: [SendAttemptItem]?

    /// An answer.
    public init(signedPayload: String?, sendAttempts: [SendAttemptItem]?) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
