/// Everything the ledger holds that a customer's state is worked out from, read at one moment:
/// their transactions, the renewal infos of their subscriptions, their balances, events and
/// exposures to experiments, and whether the ledger knows them.
public struct CustomerSnapshot: Hashable, Sendable {
    /// The customer's transactions, oldest purchase first; without their signed JWS unless
    /// read with it.
    public var transactions: [StoredTransaction]
    /// The renewal infos of the customer's auto-renewable subscriptions, by original
    /// transaction id.
    public var renewalInfos: [StoredRenewalInfo]
    /// The balances that are not zero, by item.
    public var balances: [String: Int]
    /// The customer's events by name.
    public var events: [String: EventSummary]
    /// The customer's exposures to experiments, by exposure time, then experiment and phase.
    public var exposures: [ExperimentExposure]
    /// Whether the ledger has recorded the customer.
    public var isKnown: Bool

    /// Collects a snapshot's parts.
    public init(transactions: [StoredTransaction], renewalInfos: [StoredRenewalInfo], balances: [String: Int],
                events: [String: EventSummary], exposures: [ExperimentExposure] = [], isKnown: Bool) {
        self.transactions = transactions
        self.renewalInfos = renewalInfos
        self.balances = balances
        self.events = events
        self.exposures = exposures
        self.isKnown = isKnown
    }
}

extension LedgerReading {
    /// The customer's snapshot, read through this transaction's reads one by one.
    public func customerSnapshot(customerID: String, signedData: Bool) throws -> CustomerSnapshot {
        let transactions = signedData
            ? try self.transactions(.customer(customerID))
            : try transactionsWithoutSignedData(customerID: customerID)
        let subscriptionIDs = Set(transactions.filter { $0.productType == .autoRenewableSubscription }.map(\.originalID))
        return CustomerSnapshot(
            transactions: transactions,
            renewalInfos: try subscriptionIDs.sorted().compactMap { try renewalInfo(originalTransactionID: $0) },
            balances: try balances(customerID: customerID), events: try eventSummaries(customerID: customerID),
            exposures: try exposures(customerID: customerID), isKnown: try customer(id: customerID) != nil)
    }
}
