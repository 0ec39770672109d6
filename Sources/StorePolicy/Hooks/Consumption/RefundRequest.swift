import Foundation
import LuaBridge

/// A customer's refund request that Apple asks the developer about: the `request` argument of
/// `consumption(ctx, tx, request)`.
///
/// In Lua: `{ reason = "UNINTENDED_PURCHASE", notification_uuid = "…", requested_at = seconds,
/// deadline = seconds }`; `reason` is Apple's `consumptionRequestReason` (`UNINTENDED_PURCHASE`,
/// `FULFILLMENT_ISSUE`, `UNSATISFIED_WITH_PURCHASE`, `LEGAL`, `OTHER`), nil when Apple gave none.
public struct RefundRequest: Sendable, Equatable, Codable {
    /// Why the customer asked, in Apple's words.
    public var reason: String?
    /// The `CONSUMPTION_REQUEST` notification's UUID.
    public var notificationUUID: String
    /// When Apple signed the request.
    public var requestedAt: Date
    /// When Apple's window for an answer closes.
    public var deadline: Date

    /// A request.
    public init(reason: String?, notificationUUID: String, requestedAt: Date, deadline: Date) {
        self.reason = reason
        self.notificationUUID = notificationUUID
        self.requestedAt = requestedAt
        self.deadline = deadline
    }

    /// How long Apple waits for an answer to a request, when the request does not say.
    static let answerWindow: TimeInterval = 12 * 3600

    /// A request with no reason, made at `now`: what a hook is asked about when no request is given.
    static func withoutReason(madeAt now: Date) -> RefundRequest {
        RefundRequest(reason: nil, notificationUUID: "", requestedAt: now, deadline: now.addingTimeInterval(answerWindow))
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case reason, notificationUUID = "notification_uuid", requestedAt = "requested_at", deadline
    }

    /// Reads a request as `storerules eval` and `decide` take it: every field optional, an
    /// unknown one refused; times are epoch seconds, the deadline 12 hours after the request
    /// when left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        notificationUUID = try container.decodeIfPresent(String.self, forKey: .notificationUUID) ?? ""
        requestedAt = try container.decodeEpochSecondsIfPresent(forKey: .requestedAt) ?? Date(timeIntervalSince1970: 0)
        deadline = try container.decodeEpochSecondsIfPresent(forKey: .deadline) ?? requestedAt.addingTimeInterval(Self.answerWindow)
    }

    /// Writes the request as Lua sees it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encode(notificationUUID, forKey: .notificationUUID)
        try container.encode(EpochSeconds.whole(requestedAt), forKey: .requestedAt)
        try container.encode(EpochSeconds.whole(deadline), forKey: .deadline)
    }

    /// Reads a request as `eval --arg` and `decide` give it (see ``init(from:)``), made at `now`
    /// when it names no `requested_at`.
    ///
    /// - Throws: ``PolicyInputError`` naming the field that is wrong.
    public static func decode(_ value: LuaValue, madeAt now: Date) throws(PolicyInputError) -> RefundRequest {
        try PolicyInputError.decode(RefundRequest.self, from: value, defaults: ["requested_at": .integer(EpochSeconds.whole(now))])
    }

    /// The request as the hook receives it.
    var luaValue: LuaValue {
        var fields: [LuaValue: LuaValue] = [
            .string("notification_uuid"): .string(notificationUUID),
            .string("requested_at"): .integer(EpochSeconds.whole(requestedAt)),
            .string("deadline"): .integer(EpochSeconds.whole(deadline)),
        ]
        if let reason { fields[.string("reason")] = .string(reason) }
        return .table(LuaTable(hash: fields))
    }
}
