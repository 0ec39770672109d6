/// The body of Extend Subscription Renewal Dates for All Active Subscribers.
public struct MassExtendRenewalDateRequest: Codable, Sendable, Equatable {
    /// Days to extend by, 1–90.
    public var extendByDays: Int
    /// The reason code, 0–3.
    public var extendReasonCode: Int
    /// The caller's id of the request.
    public var requestIdentifier: String
    /// The storefronts to extend in; all when absent.
    public var storefrontCountryCodes: [String]?
    /// The subscription product whose subscribers are extended.
    public var productId: String

    /// A request.
    public init(extendByDays: Int, extendReasonCode: Int, requestIdentifier: String, storefrontCountryCodes: [String]?, productId: String) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.productId = productId
    }
}

/// The answer of a mass extension: its request identifier.
public struct MassExtendRenewalDateResponse: Codable, Sendable, Equatable {
    /// The caller's id of the request.
    public var requestIdentifier: String?

    /// An answer.
    public init(requestIdentifier: String?) {
        self.requestIdentifier = requestIdentifier
    }
}

/// The answer of Get Status of Subscription Renewal Date Extensions.
public struct MassExtendRenewalDateStatusResponse: Codable, Sendable, Equatable {
    /// The caller's id of the request.
    public var requestIdentifier: String?
    /// Whether every subscriber has been handled.
    public var complete: Bool?
    /// When it completed, in milliseconds since 1970.
    public var completeDate: Int64?
    /// Subscribers extended.
    public var succeededCount: Int64?
    /// Subscribers not extended.
    public var failedCount: Int64?

    /// An answer.
    public init(requestIdentifier: String?, complete: Bool?, completeDate: Int64?, succeededCount: Int64?, failedCount: Int64?) {
        self.requestIdentifier = requestIdentifier
        self.complete = complete
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
