import Foundation
import StoreCore
import StorePolicy
import StoreTesting

/// A scripted customer journey through the local test store: the steps of `journey.json`
/// that `storerules run` plays against a fresh ledger.
///
/// ```json
/// { "title": "A bird watcher's first months", "customer": "watcher-1",
///   "steps": [
///     { "action": "storefront", "placement": "home", "note": "A new bird watcher opens the app" },
///     { "action": "purchase", "product": "pellet.box", "note": "Buys a box of pellets" },
///     { "action": "advance", "duration": "P1M" } ] }
/// ```
public struct Journey: Sendable, Decodable, Equatable {
    /// What the journey shows.
    public var title: String
    /// The customer the steps are for, unless a step names another.
    public var customer: String
    /// When the store's clock starts; by default, when the journey runs.
    public var start: Date?
    /// The placement whose decisions are shown after each step (default "home").
    public var placement: String
    /// The steps, in order.
    public var steps: [Step]

    /// One step of a journey.
    public struct Step: Sendable, Decodable, Equatable {
        /// What the step does.
        public var action: Action
        /// A sentence that says what happens, for the reader.
        public var note: String?
        /// The customer, when not the journey's.
        public var customer: String?
    }

    /// The things a step can do.
    public enum Action: Sendable, Equatable {
        /// Shows the storefront plan at a placement.
        case storefront(placement: String)
        /// Buys a product, with a promotional offer, an offer code or a win-back offer.
        case purchase(product: String, quantity: Int, offer: String?, offerCode: String?, winBackOffer: String? = nil)
        /// Approves the customer's pending Ask to Buy request.
        case approve
        /// Declines the customer's pending Ask to Buy request.
        case decline
        /// Moves the store's clock forward (ISO 8601, such as `P1M`).
        case advance(StoreDuration)
        /// Changes the store's settings.
        case settings(askToBuy: Bool?, billingRetry: Bool?, gracePeriod: Bool?)
        /// Turns auto-renew on or off for a group.
        case autoRenew(enabled: Bool, group: String)
        /// Fixes a billing problem in a group.
        case resolveBilling(group: String)
        /// Ends a subscription now.
        case expire(group: String)
        /// Refunds the customer's latest transaction for a product.
        case refund(product: String)
        /// Loads another policy file from the folder (by default `policy.lua` again).
        case reload(policy: String)
        /// Shows the features the policy unlocks.
        case features
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case title, customer, start, placement, steps
    }

    /// Reads a journey from JSON bytes, whatever the bytes are (see ``init(from:)``).
    ///
    /// - Throws: ``PolicyInputError`` naming where the input is wrong and why; it never traps.
    public static func decode(json: Data) throws(PolicyInputError) -> Journey {
        try PolicyInputError.decode(Journey.self, from: json)
    }

    /// Reads a journey; `start` is ISO 8601, `steps` is required, an unknown field is
    /// refused, here and in each step.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? "Journey"
        customer = try container.decodeIfPresent(String.self, forKey: .customer) ?? "customer-1"
        placement = try container.decodeIfPresent(String.self, forKey: .placement) ?? "home"
        if let text = try container.decodeIfPresent(String.self, forKey: .start) {
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw DecodingError.dataCorruptedError(forKey: .start, in: container, debugDescription: "\"\(text)\" is not an ISO 8601 date")
            }
            start = date
        }
        steps = try container.decode([Step].self, forKey: .steps)
    }

    /// Reads `journey.json` at `url`.
    ///
    /// - Throws: the error reading the file, or ``PolicyInputError`` when it is not a journey.
    public init(contentsOf url: URL) throws {
        self = try Journey.decode(json: Data(contentsOf: url))
    }
}

extension Journey.Step {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case action, note, customer, placement, product, quantity, offer, offerCode = "offer_code", duration
        case winBackOffer = "win_back_offer"
        case askToBuy = "ask_to_buy", billingRetry = "billing_retry", gracePeriod = "grace_period"
        case enabled, group, policy
    }

    /// Each action's name and the fields it takes besides `action`, `note` and `customer`.
    private static let actions: KeyValuePairs<String, [CodingKeys]> = [
        "storefront": [.placement], "purchase": [.product, .quantity, .offer, .offerCode, .winBackOffer],
        "approve": [], "decline": [], "advance": [.duration], "settings": [.askToBuy, .billingRetry, .gracePeriod],
        "auto_renew": [.enabled, .group], "resolve_billing": [.group], "expire": [.group], "refund": [.product],
        "reload": [.policy], "features": [],
    ]

    /// Reads a step: `action` names it, the other fields are its arguments; a field the
    /// action does not take is refused, and `quantity` is 1 or more.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decodeIfPresent(String.self, forKey: .action)
        let known: [CodingKeys]? = if let name {
            Self.actions.first(where: { $0.key == name }).map { [.action, .note, .customer] + $0.value }
        } else {
            Array(CodingKeys.allCases)
        }
        if let known { try decoder.refuseFields(except: known.map(\.stringValue)) }
        note = try container.decodeIfPresent(String.self, forKey: .note)
        customer = try container.decodeIfPresent(String.self, forKey: .customer)
        switch try container.decode(String.self, forKey: .action) {
        case "storefront":
            action = .storefront(placement: try container.decodeIfPresent(String.self, forKey: .placement) ?? "store")
        case "purchase":
            let quantity = try container.decodeIfPresent(Int.self, forKey: .quantity) ?? 1
            guard quantity >= 1 else {
                throw DecodingError.dataCorruptedError(forKey: .quantity, in: container, debugDescription: "expected a whole number of 1 or more, found \(quantity)")
            }
            action = .purchase(product: try container.decode(String.self, forKey: .product), quantity: quantity,
                               offer: try container.decodeIfPresent(String.self, forKey: .offer),
                               offerCode: try container.decodeIfPresent(String.self, forKey: .offerCode),
                               winBackOffer: try container.decodeIfPresent(String.self, forKey: .winBackOffer))
        case "approve": action = .approve
        case "decline": action = .decline
        case "advance":
            let text = try container.decode(String.self, forKey: .duration)
            guard let duration = StoreDuration(iso8601: text) else {
                throw DecodingError.dataCorruptedError(forKey: .duration, in: container, debugDescription: "\(JSONPath.quoted(text)) is not an ISO 8601 duration")
            }
            action = .advance(duration)
        case "settings":
            action = .settings(askToBuy: try container.decodeIfPresent(Bool.self, forKey: .askToBuy),
                               billingRetry: try container.decodeIfPresent(Bool.self, forKey: .billingRetry),
                               gracePeriod: try container.decodeIfPresent(Bool.self, forKey: .gracePeriod))
        case "auto_renew":
            action = .autoRenew(enabled: try container.decode(Bool.self, forKey: .enabled),
                                group: try container.decode(String.self, forKey: .group))
        case "resolve_billing": action = .resolveBilling(group: try container.decode(String.self, forKey: .group))
        case "expire": action = .expire(group: try container.decode(String.self, forKey: .group))
        case "refund": action = .refund(product: try container.decode(String.self, forKey: .product))
        case "reload": action = .reload(policy: try container.decodeIfPresent(String.self, forKey: .policy) ?? "policy.lua")
        case "features": action = .features
        case let unknown:
            let names = Self.actions.map(\.key)
            let hint = NearestName.nearest(to: unknown, in: names).map { "did you mean \"\($0)\"? Use " } ?? "use "
            throw DecodingError.dataCorruptedError(
                forKey: .action, in: container,
                debugDescription: "unknown action \(JSONPath.quoted(unknown)); " + hint + names.dropLast().joined(separator: ", ") + " or " + (names.last ?? ""))
        }
    }
}
