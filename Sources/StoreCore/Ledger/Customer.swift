import Foundation

/// A customer known to the ``Ledger``: the owner of transactions and balances.
public struct Customer: Hashable, Sendable, Codable {
    /// The app's own identifier for the customer.
    public var id: String
    /// The app account token the app attaches to this customer's purchases, when it uses one;
    /// notifications for purchases of unknown origin are matched to customers through it.
    public var appAccountToken: String?
    /// When the ledger first recorded the customer.
    public var createdDate: Date

    /// Creates a customer value.
    public init(id: String, appAccountToken: String? = nil, createdDate: Date) {
        self.id = id
        self.appAccountToken = appAccountToken
        self.createdDate = createdDate
    }
}
