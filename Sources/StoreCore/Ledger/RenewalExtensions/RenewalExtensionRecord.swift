/// One request to extend subscription renewal dates for an incident, as the ledger keeps it:
/// one subscriber's (an original transaction) or every subscriber's of a product (Apple's mass
/// extension), under the request identifier that makes sending it again change nothing.
public struct RenewalExtensionRecord: Sendable, Hashable {
    /// Where the request got to.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Apple accepted it (for a mass extension: started it).
        case sent
        /// Apple refused it, or it could not be sent; `detail` says why.
        case failed
    }

    /// Apple's `requestIdentifier`: a UUID made from the incident and the subscription (or product).
    public let requestIdentifier: String
    /// The key of the incident the request compensates: the SHA-256 of the incident's canonical
    /// form (`Incident.compensationKey` in StoreService). Records written before the key was the
    /// incident's meaning carry the SHA-256 of the incident file's bytes instead.
    public let incidentDigest: String
    /// The subscription extended, or nil for a mass extension of ``productID``.
    public let originalTransactionID: String?
    /// The subscriber, when one.
    public let customerID: String?
    /// The product.
    public let productID: String
    /// The storefronts of a mass extension, or nil for every storefront.
    public let storefronts: [String]?
    /// Days added.
    public let days: Int
    /// Apple's reason code, 0–3.
    public let reasonCode: Int
    /// Where it got to.
    public var state: State
    /// The new renewal date Apple answered, in milliseconds since 1970.
    public var effectiveDate: Int64?
    /// Why it failed, when it did.
    public var detail: String?
    /// When it was last sent, in milliseconds since 1970.
    public var updatedDate: Int64

    /// Describes a request.
    public init(requestIdentifier: String, incidentDigest: String, originalTransactionID: String?, customerID: String?, productID: String,
                storefronts: [String]?, days: Int, reasonCode: Int, state: State, effectiveDate: Int64? = nil, detail: String? = nil,
                updatedDate: Int64) {
        self.requestIdentifier = requestIdentifier
        self.incidentDigest = incidentDigest
        self.originalTransactionID = originalTransactionID
        self.customerID = customerID
        self.productID = productID
        self.storefronts = storefronts
        self.days = days
        self.reasonCode = reasonCode
        self.state = state
        self.effectiveDate = effectiveDate
        self.detail = detail
        self.updatedDate = updatedDate
    }
}

extension RenewalExtensionRecord {
    /// The same request, recorded under the incident key `incidentDigest`.
    public func filed(under incidentDigest: String) -> RenewalExtensionRecord {
        RenewalExtensionRecord(requestIdentifier: requestIdentifier, incidentDigest: incidentDigest, originalTransactionID: originalTransactionID,
                               customerID: customerID, productID: productID, storefronts: storefronts, days: days, reasonCode: reasonCode,
                               state: state, effectiveDate: effectiveDate, detail: detail, updatedDate: updatedDate)
    }
}
