import Foundation

/// One signed version of a transaction the ``Ledger`` received.
///
/// The App Store signs a transaction again when it changes (a refund, an upgrade) and whenever
/// it is delivered anew; the ledger keeps every distinct JWS, and the stored transaction shows
/// the newest.
public struct TransactionVersion: Hashable, Sendable, Codable {
    /// The transaction id.
    public var transactionID: String
    /// The JWS exactly as received.
    public var jwsRepresentation: String
    /// When this version was signed.
    public var signedDate: Date
    /// The revocation date this version carries, if any.
    public var revocationDate: Date?
    /// When the ledger received this version first.
    public var receivedDate: Date

    /// Creates a version value.
    public init(transactionID: String, jwsRepresentation: String, signedDate: Date, revocationDate: Date?, receivedDate: Date) {
        self.transactionID = transactionID
        self.jwsRepresentation = jwsRepresentation
        self.signedDate = signedDate
        self.revocationDate = revocationDate
        self.receivedDate = receivedDate
    }
}
