import Foundation
import StoreCore
import StorePolicy
import StoreTesting

/// What one journey step did, and what the policy decided afterwards.
public struct JourneyStepReport: Sendable, Encodable {
    /// The step's number, from 1.
    public var number: Int
    /// The step, in words: "purchase pellet.box × 2".
    public var action: String
    /// The step's note.
    public var note: String?
    /// The customer.
    public var customerID: String
    /// The store's clock after the step.
    public var date: Date
    /// What happened in the store: transactions, notifications, Ask to Buy requests.
    public var events: [String]
    /// Why the step failed, when it did (the journey goes on).
    public var error: String?
    /// What the policy granted for the transactions of this step.
    public var grants: [Grant]
    /// Transactions left unfinished, with the reason.
    public var unfinished: [String]
    /// The customer's balances after the step.
    public var balances: [String: Int]
    /// The features the policy unlocks after the step.
    public var features: [String]
    /// The storefront plan at the journey's placement (or the step's, for a storefront step).
    public var plan: StorefrontPlan

    private enum CodingKeys: String, CodingKey {
        case number, action, note, customerID = "customer_id", date, events, error, grants, unfinished, balances, features, plan
    }

    /// Writes the report as JSON; the date as ISO 8601.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(action, forKey: .action)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encode(customerID, forKey: .customerID)
        try container.encode(ISO8601DateFormatter().string(from: date), forKey: .date)
        try container.encode(events, forKey: .events)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encode(grants, forKey: .grants)
        try container.encode(unfinished, forKey: .unfinished)
        try container.encode(balances, forKey: .balances)
        try container.encode(features, forKey: .features)
        try container.encode(plan, forKey: .plan)
    }
}
