/// What the HTTP benchmark measured on one ledger: storefront GETs and notification POSTs
/// through `storerules serve`, with one instance and, on PostgreSQL, with two.
public struct HTTPBenchFigures: Sendable, Encodable {
    /// `sqlite` or `postgres`.
    public var ledger: String
    /// How many instances served.
    public var instances: Int
    /// `GET /v1/customers/{id}/storefront`, customers in turn.
    public var storefront: WrkRun
    /// `POST /v1/apple/retention`, signed requests about known subscriptions in turn: a
    /// verification, a ledger read and the `retention_message` hook each.
    public var retention: WrkRun
    /// `POST /v1/notifications`, each a new purchase of a known customer.
    public var notifications: WrkRun
    /// Whether the notification run used up its signed notifications and sent some again
    /// (those answer `already_processed`, which costs less).
    public var notificationsRepeated: Bool

    private enum CodingKeys: String, CodingKey {
        case ledger, instances, storefront, retention, notifications, notificationsRepeated = "notifications_repeated"
    }

    /// The goals on a 2-core machine: storefront GETs per second and their p99, notification
    /// ingests per second.
    public static let storefrontGoal = 10_000.0, storefrontP99GoalMilliseconds = 10.0, notificationGoal = 2_000.0
}
