/// A developer's answer to a refund request: the body of Apple's Send Consumption Information
/// (v2), with Apple's field names, validated by Apple's rules before anything sends it.
public struct ConsumptionAnswer: Sendable, Hashable, Codable {
    /// Whether the purchase reached the customer and worked, in Apple's words.
    public enum DeliveryStatus: String, Sendable, Hashable, Codable, CaseIterable {
        /// Delivered and working.
        case delivered = "DELIVERED"
        /// Not delivered, or not working, because of a quality issue.
        case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
        /// The wrong item was delivered.
        case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
        /// Not delivered because of a server outage.
        case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
        /// Not delivered for another reason.
        case undeliveredOther = "UNDELIVERED_OTHER"
    }

    /// What the developer would like Apple to decide, in Apple's words.
    public enum RefundPreference: String, Sendable, Hashable, Codable, CaseIterable {
        /// Decline the refund.
        case decline = "DECLINE"
        /// Grant the whole refund.
        case grantFull = "GRANT_FULL"
        /// Grant a refund in proportion to what was not consumed.
        case grantProrated = "GRANT_PRORATED"
    }

    /// Whether the customer consented to sharing consumption data; Apple accepts only `true`.
    public var customerConsented: Bool
    /// Whether the purchase reached the customer and worked.
    public var deliveryStatus: DeliveryStatus
    /// How much of the purchase was consumed, in thousandths of a percent (0–100000).
    public var consumptionPercentage: Int?
    /// What the developer would like Apple to decide.
    public var refundPreference: RefundPreference?
    /// Whether a free sample or trial of the content was provided.
    public var sampleContentProvided: Bool

    /// The largest consumption percentage: 100 %, in thousandths of a percent.
    public static let wholePurchase = 100_000

    /// An answer, validated (see ``validate(autoRenewable:)``).
    ///
    /// - Throws: ``ConsumptionAnswerError`` naming the field that breaks Apple's rules.
    public init(customerConsented: Bool, deliveryStatus: DeliveryStatus, consumptionPercentage: Int? = nil,
                refundPreference: RefundPreference? = nil, sampleContentProvided: Bool,
                autoRenewable: Bool = false) throws(ConsumptionAnswerError) {
        self.customerConsented = customerConsented
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
        try validate(autoRenewable: autoRenewable)
    }

    /// Checks Apple's rules: consent given; a percentage within 0–100000, 0 for anything not
    /// delivered, and none for an auto-renewable subscription; a prorated refund only with a
    /// percentage strictly between 0 and 100000.
    ///
    /// - Parameter autoRenewable: whether the refund is of an auto-renewable subscription, when known.
    /// - Throws: ``ConsumptionAnswerError`` naming the field.
    public func validate(autoRenewable: Bool = false) throws(ConsumptionAnswerError) {
        guard customerConsented else {
            throw ConsumptionAnswerError(field: "customer_consented",
                                         reason: "Apple accepts consumption data only with the customer's consent (true); answer nil to send nothing")
        }
        if let consumptionPercentage {
            guard !autoRenewable else {
                throw ConsumptionAnswerError(field: "consumption_percentage", reason: "Apple refuses it for an auto-renewable subscription; leave it out")
            }
            guard (0...Self.wholePurchase).contains(consumptionPercentage) else {
                throw ConsumptionAnswerError(field: "consumption_percentage",
                                             reason: "\(consumptionPercentage) is outside 0–100000 (thousandths of a percent)")
            }
            guard deliveryStatus == .delivered || consumptionPercentage == 0 else {
                throw ConsumptionAnswerError(field: "consumption_percentage",
                                             reason: "must be 0 when delivery_status is \(deliveryStatus.rawValue), not DELIVERED")
            }
        }
        if refundPreference == .grantProrated, !autoRenewable {
            guard let consumptionPercentage, consumptionPercentage > 0, consumptionPercentage < Self.wholePurchase else {
                throw ConsumptionAnswerError(field: "consumption_percentage",
                                             reason: "a GRANT_PRORATED refund needs a percentage above 0 and below 100000 to prorate by")
            }
        }
    }

    /// Reads an answer stored as JSON, validating it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        customerConsented = try container.decode(Bool.self, forKey: .customerConsented)
        deliveryStatus = try container.decode(DeliveryStatus.self, forKey: .deliveryStatus)
        consumptionPercentage = try container.decodeIfPresent(Int.self, forKey: .consumptionPercentage)
        refundPreference = try container.decodeIfPresent(RefundPreference.self, forKey: .refundPreference)
        sampleContentProvided = try container.decode(Bool.self, forKey: .sampleContentProvided)
        try validate()
    }

    private enum CodingKeys: String, CodingKey {
        case customerConsented, deliveryStatus, consumptionPercentage, refundPreference, sampleContentProvided
    }
}

/// Why a consumption answer breaks Apple's rules: the field (as a policy names it) and why.
public struct ConsumptionAnswerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field, in snake_case.
    public let field: String
    /// What is wrong with it.
    public let reason: String

    /// An error about `field`.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// `field: reason`.
    public var description: String { "\(field): \(reason)" }
}
