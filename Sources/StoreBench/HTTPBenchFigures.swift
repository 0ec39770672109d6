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

    /// Retention requests per second over storefront GETs per second, in the same run: what
    /// verifying a signed request costs beside a plan's hooks.
    public var retentionToStorefrontRatio: Double {
        storefront.requestsPerSecond > 0 ? retention.requestsPerSecond / storefront.requestsPerSecond : 0
    }

    private enum CodingKeys: String, CodingKey {
        case ledger, instances, storefront, retention, notifications, notificationsRepeated = "notifications_repeated"
        case retentionToStorefrontRatio = "retention_to_storefront_ratio"
    }

    /// Writes the figures, with the ratio.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ledger, forKey: .ledger)
        try container.encode(instances, forKey: .instances)
        try container.encode(storefront, forKey: .storefront)
        try container.encode(retention, forKey: .retention)
        try container.encode(notifications, forKey: .notifications)
        try container.encode(notificationsRepeated, forKey: .notificationsRepeated)
        try container.encode(retentionToStorefrontRatio, forKey: .retentionToStorefrontRatio)
    }

    /// The goals on a 2-core machine: storefront GETs per second and their p99, notification
    /// ingests per second.
    public static let storefrontGoal = 10_000.0, storefrontP99GoalMilliseconds = 10.0, notificationGoal = 2_000.0
}
