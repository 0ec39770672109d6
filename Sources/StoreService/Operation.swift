/// What a request asks the service to do.
public enum Operation: Sendable {
    /// The storefront plan for a customer at a placement.
    case storefront(customerID: String, placement: String)
    /// Verify a signed transaction and ingest it for a customer.
    case ingestTransaction(customerID: String, jws: String)
    /// Verify an App Store Server Notification V2 `signedPayload` and ingest what it carries.
    case ingestNotification(jws: String, customerID: String?)
    /// What a customer owns and may use now.
    case entitlements(customerID: String)
    /// Re-read `policy.lua` and swap it in.
    case reload
}
