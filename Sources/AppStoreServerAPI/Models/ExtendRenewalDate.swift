/// The body of Extend a Subscription Renewal Date.
public struct ExtendRenewalDateRequest: Codable, Sendable, Equatable {
    /// Days to extend by, 1–90.
    public var extendByDays: Int
    /// `0` undeclared, `1` customer satisfaction, `2` other, `3` service issue or outage.
    public var extendReasonCode: Int
    /// The caller's id of the request, which makes it idempotent (at most 128 characters).
    public var requestIdentifier: String

    /// A request.
    public init(extendByDays: Int, extendReasonCode: Int, requestIdentifier: String) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }
}

/// The answer of Extend a Subscription Renewal Date.
public struct ExtendRenewalDateResponse: Codable, Sendable, Equatable {
    /// The subscription's original transaction id.
    public var originalTransactionId: String?
    /// The web order line item id of the period extended.
    public var webOrderLineItemId: String?
    /// Whether the date moved.
    public var success: Bool?
    /// The new renewal date, in milliseconds since 1970.
    public var effectiveDate: Int64?

    /// An answer.
    public init(originalTransactionId: String?, webOrderLineItemId: String?, success: Bool?, effectiveDate: Int64?) {
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.success = success
        self.effectiveDate = effectiveDate
    }
}
