/// Every endpoint of the App Store Server API StoreRules speaks, with its method and path: the
/// one place both the client and the local store's server read them from.
public enum AppStoreServerAPIEndpoint: Sendable, Equatable {
    /// `GET /inApps/v1/transactions/{transactionId}`.
    case transactionInfo(transactionID: String)
    /// `GET /inApps/v1|v2/history/{transactionId}`.
    case transactionHistory(version: Int, transactionID: String)
    /// `GET /inApps/v1/subscriptions/{transactionId}`.
    case subscriptionStatuses(transactionID: String)
    /// `GET /inApps/v2/refund/lookup/{transactionId}`.
    case refundHistory(transactionID: String)
    /// `GET /inApps/v1/lookup/{orderId}`.
    case orderLookup(orderID: String)
    /// `PUT /inApps/v1|v2/transactions/consumption/{transactionId}`.
    case consumption(version: Int, transactionID: String)
    /// `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`.
    case extendRenewalDate(originalTransactionID: String)
    /// `POST /inApps/v1/subscriptions/extend/mass`.
    case massExtendRenewalDate
    /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`.
    case massExtendStatus(productID: String, requestIdentifier: String)
    /// `POST /inApps/v1/notifications/test`.
    case requestTestNotification
    /// `GET /inApps/v1/notifications/test/{testNotificationToken}`.
    case testNotificationStatus(token: String)
    /// `POST /inApps/v1/notifications/history`.
    case notificationHistory
    /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`.
    case setAppAccountToken(originalTransactionID: String)
    /// `GET /inApps/v1/transactions/appTransactions/{transactionId}`.
    case appTransactionInfo(transactionID: String)

    /// The HTTP method.
    public var method: String {
        switch self {
        case .transactionInfo, .transactionHistory, .subscriptionStatuses, .refundHistory, .orderLookup, .massExtendStatus,
             .testNotificationStatus, .appTransactionInfo:
            "GET"
        case .consumption, .extendRenewalDate, .setAppAccountToken:
            "PUT"
        case .massExtendRenewalDate, .requestTestNotification, .notificationHistory:
            "POST"
        }
    }

    /// The path's segments after `/inApps`, not encoded.
    public var segments: [String] {
        switch self {
        case .transactionInfo(let id): ["v1", "transactions", id]
        case .transactionHistory(let version, let id): ["v\(version)", "history", id]
        case .subscriptionStatuses(let id): ["v1", "subscriptions", id]
        case .refundHistory(let id): ["v2", "refund", "lookup", id]
        case .orderLookup(let id): ["v1", "lookup", id]
        case .consumption(let version, let id): ["v\(version)", "transactions", "consumption", id]
        case .extendRenewalDate(let id): ["v1", "subscriptions", "extend", id]
        case .massExtendRenewalDate: ["v1", "subscriptions", "extend", "mass"]
        case .massExtendStatus(let product, let request): ["v1", "subscriptions", "extend", "mass", product, request]
        case .requestTestNotification: ["v1", "notifications", "test"]
        case .testNotificationStatus(let token): ["v1", "notifications", "test", token]
        case .notificationHistory: ["v1", "notifications", "history"]
        case .setAppAccountToken(let id): ["v1", "transactions", id, "appAccountToken"]
        case .appTransactionInfo(let id): ["v1", "transactions", "appTransactions", id]
        }
    }

    /// The path, each segment percent-encoded: `/inApps/v1/transactions/2000000000001`.
    public var path: String {
        "/inApps/" + segments.map(AppStoreServerAPIRequest.encode).joined(separator: "/")
    }

    /// A name for logs and errors, without the ids: `GET /inApps/v1/transactions/{id}`.
    public var name: String {
        var segments = segments
        switch self {
        case .transactionInfo, .transactionHistory, .subscriptionStatuses, .refundHistory, .orderLookup, .consumption, .extendRenewalDate,
             .testNotificationStatus, .appTransactionInfo:
            segments[segments.count - 1] = "{id}"
        case .setAppAccountToken:
            segments[2] = "{id}"
        case .massExtendStatus:
            segments[4] = "{productId}"
            segments[5] = "{requestIdentifier}"
        case .massExtendRenewalDate, .requestTestNotification, .notificationHistory:
            break
        }
        return "\(method) /inApps/" + segments.joined(separator: "/")
    }

    /// The endpoint `method` and the decoded segments after `/inApps` name, or nil.
    public init?(method: String, segments: [String]) {
        switch (method, segments.count) {
        case ("GET", 3) where segments[0] == "v1" && segments[1] == "transactions": self = .transactionInfo(transactionID: segments[2])
        case ("GET", 3) where (segments[0] == "v1" || segments[0] == "v2") && segments[1] == "history":
            self = .transactionHistory(version: segments[0] == "v1" ? 1 : 2, transactionID: segments[2])
        case ("GET", 3) where segments[0] == "v1" && segments[1] == "subscriptions": self = .subscriptionStatuses(transactionID: segments[2])
        case ("GET", 4) where segments[0] == "v2" && segments[1] == "refund" && segments[2] == "lookup":
            self = .refundHistory(transactionID: segments[3])
        case ("GET", 3) where segments[0] == "v1" && segments[1] == "lookup": self = .orderLookup(orderID: segments[2])
        case ("PUT", 4) where (segments[0] == "v1" || segments[0] == "v2") && segments[1] == "transactions" && segments[2] == "consumption":
            self = .consumption(version: segments[0] == "v1" ? 1 : 2, transactionID: segments[3])
        case ("PUT", 4) where segments[0] == "v1" && segments[1] == "subscriptions" && segments[2] == "extend":
            self = .extendRenewalDate(originalTransactionID: segments[3])
        case ("POST", 4) where segments == ["v1", "subscriptions", "extend", "mass"]: self = .massExtendRenewalDate
        case ("GET", 6) where segments[0] == "v1" && segments[1] == "subscriptions" && segments[2] == "extend" && segments[3] == "mass":
            self = .massExtendStatus(productID: segments[4], requestIdentifier: segments[5])
        case ("POST", 3) where segments == ["v1", "notifications", "test"]: self = .requestTestNotification
        case ("GET", 4) where segments[0] == "v1" && segments[1] == "notifications" && segments[2] == "test":
            self = .testNotificationStatus(token: segments[3])
        case ("POST", 3) where segments == ["v1", "notifications", "history"]: self = .notificationHistory
        case ("PUT", 4) where segments[0] == "v1" && segments[1] == "transactions" && segments[3] == "appAccountToken":
            self = .setAppAccountToken(originalTransactionID: segments[2])
        case ("GET", 4) where segments[0] == "v1" && segments[1] == "transactions" && segments[2] == "appTransactions":
            self = .appTransactionInfo(transactionID: segments[3])
        default:
            return nil
        }
    }
}
