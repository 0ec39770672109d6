import StoreCore

/// The body of Send Consumption Information (v2): the developer's answer to a refund request.
public struct ConsumptionRequest: Codable, Sendable, Equatable {
    /// Whether the customer consented to sharing the data.
    public var customerConsented: Bool
    /// Whether a free sample or trial was offered.
    public var sampleContentProvided: Bool
    /// `DELIVERED`, `UNDELIVERED_QUALITY_ISSUE`, `UNDELIVERED_WRONG_ITEM`,
    /// `UNDELIVERED_SERVER_OUTAGE` or `UNDELIVERED_OTHER`.
    public var deliveryStatus: String
    /// How much was consumed, in thousandths of a percent (0–100000).
    public var consumptionPercentage: Int?
    /// `DECLINE`, `GRANT_FULL` or `GRANT_PRORATED`.
    public var refundPreference: String?

    /// The delivery statuses Apple accepts.
    public static let deliveryStatuses: Set<String> = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
    ]
    /// The refund preferences Apple accepts.
    public static let refundPreferences: Set<String> = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]

    /// A body.
    public init(customerConsented: Bool, sampleContentProvided: Bool, deliveryStatus: String, consumptionPercentage: Int? = nil,
                refundPreference: String? = nil) {
        self.customerConsented = customerConsented
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
    }

    /// The first rule of Apple's the body breaks, naming the field, or nil.
    public var violation: (code: APIErrorCode.Known, message: String)? {
        guard customerConsented else { return (.invalidCustomerConsented, "customerConsented must be true") }
        guard Self.deliveryStatuses.contains(deliveryStatus) else {
            return (.invalidDeliveryStatus, "deliveryStatus \(deliveryStatus) is not one of \(Self.deliveryStatuses.sorted().joined(separator: ", "))")
        }
        if let consumptionPercentage, !(0...100_000).contains(consumptionPercentage) {
            return (.generalBadRequest, "consumptionPercentage \(consumptionPercentage) is outside 0–100000")
        }
        if let refundPreference, !Self.refundPreferences.contains(refundPreference) {
            return (.generalBadRequest, "refundPreference \(refundPreference) is not DECLINE, GRANT_FULL or GRANT_PRORATED")
        }
        if let consumptionPercentage, consumptionPercentage != 0, deliveryStatus != "DELIVERED" {
            return (.generalBadRequest, "consumptionPercentage must be 0 when deliveryStatus is \(deliveryStatus)")
        }
        return nil
    }
}

/// The body of Send Consumption Information (v1), the earlier form with numeric fields.
public struct ConsumptionRequestV1: Codable, Sendable, Equatable {
    /// Whether the customer consented to sharing the data.
    public var customerConsented: Bool?
    /// `0` undeclared, `1` not consumed, `2` partially, `3` fully.
    public var consumptionStatus: Int?
    /// `0` undeclared, `1` Apple, `2` non-Apple.
    public var platform: Int?
    /// Whether a free sample or trial was offered.
    public var sampleContentProvided: Bool?
    /// `0` delivered and working … `5` other.
    public var deliveryStatus: Int?
    /// The customer's app account token, or the empty string.
    public var appAccountToken: String?
    /// The customer's account age band, 0–7.
    public var accountTenure: Int?
    /// The customer's play time band, 0–7.
    public var playTime: Int?
    /// Lifetime refunds band, 0–7.
    public var lifetimeDollarsRefunded: Int?
    /// Lifetime purchases band, 0–7.
    public var lifetimeDollarsPurchased: Int?
    /// `0` undeclared … `4` limited access.
    public var userStatus: Int?
    /// `0` undeclared, `1` prefer grant, `2` prefer decline, `3` no preference.
    public var refundPreference: Int?

    /// A body.
    public init(customerConsented: Bool?, consumptionStatus: Int?, platform: Int?, sampleContentProvided: Bool?, deliveryStatus: Int?,
                appAccountToken: String?, accountTenure: Int?, playTime: Int?, lifetimeDollarsRefunded: Int?,
                lifetimeDollarsPurchased: Int?, userStatus: Int?, refundPreference: Int?) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.appAccountToken = appAccountToken
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }
}

/// The body of Set App Account Token.
public struct UpdateAppAccountTokenRequest: Codable, Sendable, Equatable {
    /// The UUID to attach to the purchase, any letter case.
    public var appAccountToken: String

    /// A body.
    public init(appAccountToken: String) {
        self.appAccountToken = appAccountToken
    }
}

extension ConsumptionRequest {
    /// The body that sends `answer`, a policy's validated decision.
    public init(_ answer: ConsumptionAnswer) {
        self.init(customerConsented: answer.customerConsented, sampleContentProvided: answer.sampleContentProvided,
                  deliveryStatus: answer.deliveryStatus.rawValue, consumptionPercentage: answer.consumptionPercentage,
                  refundPreference: answer.refundPreference?.rawValue)
    }
}
