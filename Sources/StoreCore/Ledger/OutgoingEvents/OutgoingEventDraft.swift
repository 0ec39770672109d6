/// An event the classifier found in a change, before the ledger numbers it and writes its body.
struct OutgoingEventDraft: Sendable, Hashable {
    /// What it reports.
    var type: OutgoingEventType
    /// The transaction it is about, when one is.
    var transaction: StoredTransaction?
    /// The subscription it is about, after the change.
    var subscription: ReportedSubscription?
    /// The product the subscription had before a change of product.
    var previousProductID: String?
    /// When a change of product takes effect: `now`, or `next_renewal`.
    var effective: String?
    /// The grants given, reversed or restored.
    var grants: [Grant]?
    /// What the customer was entitled to before, for ``OutgoingEventType/entitlementsChanged``.
    var previousEntitlements: [String]?
    /// The refund request answered, for ``OutgoingEventType/refundRequestAnswered``.
    var refundRequest: ReportedRefundRequest?

    init(_ type: OutgoingEventType, transaction: StoredTransaction? = nil, subscription: ReportedSubscription? = nil,
         previousProductID: String? = nil, effective: String? = nil, grants: [Grant]? = nil,
         previousEntitlements: [String]? = nil, refundRequest: ReportedRefundRequest? = nil) {
        self.type = type
        self.transaction = transaction
        self.subscription = subscription
        self.previousProductID = previousProductID
        self.effective = effective
        self.grants = grants
        self.previousEntitlements = previousEntitlements
        self.refundRequest = refundRequest
    }
}
