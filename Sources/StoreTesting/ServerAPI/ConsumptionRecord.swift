import Foundation

/// Consumption information the local store's API received for a refund request, as sent.
public struct ConsumptionRecord: Sendable, Equatable {
    /// The transaction the refund request is about.
    public let transactionID: String
    /// `1` or `2`: the endpoint's version.
    public let version: Int
    /// The JSON body as received.
    public let body: String
    /// When it arrived, by the wall clock.
    public let receivedDate: Date
}
