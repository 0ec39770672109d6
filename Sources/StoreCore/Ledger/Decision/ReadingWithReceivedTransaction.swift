import Foundation
import SignedData

/// The reads of a ledger as they will be once a received transaction is stored: what a
/// decision about a new transaction reads, before anything is written.
///
/// The ledger decides before it writes, so that no rule runs while a storage lock is held. A
/// decision must still see the customer as the write will leave them — the transaction it
/// decides about included, unfinished, and its customer known — so every read that the stored
/// transaction would change answers as if it were stored; the other reads are the snapshot's.
struct ReadingWithReceivedTransaction: LedgerReading {
    /// The snapshot read.
    let base: any LedgerReading
    /// The received transaction, as the write would store it.
    let received: StoredTransaction
    /// When the write would record its customer.
    let now: Int64

    func customer(id: String) throws -> Customer? {
        if let stored = try base.customer(id: id) { return stored }
        return id == received.customerID ? newCustomer : nil
    }

    func customerID(appAccountToken: String) throws -> String? {
        try base.customerID(appAccountToken: appAccountToken)
    }

    func customers() throws -> [Customer] {
        let stored = try base.customers()
        return stored.contains { $0.id == received.customerID } ? stored : stored + [newCustomer]
    }

    func transaction(id: String) throws -> StoredTransaction? {
        try base.transaction(id: id) ?? (id == received.id ? received : nil)
    }

    func claimRefusal(_ claim: TransactionClaim) throws -> TransactionClaimRefusal? {
        try base.claimRefusal(claim)
    }

    func transactions(_ query: LedgerTransactionQuery) throws -> [StoredTransaction] {
        let stored = try base.transactions(query)
        let matches = switch query {
        case .customer(let customerID): customerID == received.customerID
        case .customerProduct(let customerID, let productID): customerID == received.customerID && productID == received.productID
        case .original(let originalID): originalID == received.originalID
        case .unfinished(let customerID): customerID == nil || customerID == received.customerID
        case .all: true
        }
        return matches ? Self.inPurchaseOrder(stored, adding: received) : stored
    }

    func transactionsWithoutSignedData(customerID: String) throws -> [StoredTransaction] {
        let stored = try base.transactionsWithoutSignedData(customerID: customerID)
        guard customerID == received.customerID else { return stored }
        var unsigned = received
        unsigned.jwsRepresentation = ""
        return Self.inPurchaseOrder(stored, adding: unsigned)
    }

    func latestTransactions(customerID: String) throws -> [StoredTransaction] {
        let stored = try base.latestTransactions(customerID: customerID)
        guard customerID == received.customerID else { return stored }
        if let latest = stored.first(where: { $0.productID == received.productID }), !Self.purchasedBefore(latest, received) {
            return stored
        }
        return (stored.filter { $0.productID != received.productID } + [received]).sorted { $0.productID < $1.productID }
    }

    func ownerOfTransaction(id: String, originalID: String) throws -> String? {
        if let owner = try base.ownerOfTransaction(id: id, originalID: originalID) { return owner }
        return id == received.id || originalID == received.originalID ? received.customerID : nil
    }

    func versions(ofTransaction transactionID: String) throws -> [TransactionVersion] {
        let stored = try base.versions(ofTransaction: transactionID)
        guard transactionID == received.id, stored.isEmpty else { return stored }
        return [received.version(receivedAt: now)]
    }

    func grants(ofTransaction transactionID: String) throws -> [Grant] {
        try base.grants(ofTransaction: transactionID)
    }

    func reversedGrants(ofTransaction transactionID: String) throws -> [Grant] {
        try base.reversedGrants(ofTransaction: transactionID)
    }

    func grantedDate(ofTransaction transactionID: String) throws -> Int64? {
        try base.grantedDate(ofTransaction: transactionID)
    }

    func unreversedGrants(ofTransaction transactionID: String) throws -> [(position: Int, grant: Grant)] {
        try base.unreversedGrants(ofTransaction: transactionID)
    }

    func balances(customerID: String) throws -> [String: Int] {
        try base.balances(customerID: customerID)
    }

    func renewalInfo(originalTransactionID: String) throws -> StoredRenewalInfo? {
        try base.renewalInfo(originalTransactionID: originalTransactionID)
    }

    func isNotificationProcessed(_ notificationUUID: String) throws -> Bool {
        try base.isNotificationProcessed(notificationUUID)
    }

    func renewalInfos() throws -> [StoredRenewalInfo] {
        try base.renewalInfos()
    }

    func processedNotifications() throws -> [ProcessedNotification] {
        try base.processedNotifications()
    }

    func pendingNotifications() throws -> [PendingNotification] {
        try base.pendingNotifications()
    }

    func notificationConflicts() throws -> [NotificationConflict] {
        try base.notificationConflicts()
    }

    func reconciliationMark(kind: ReconciliationMark.Kind, key: String) throws -> ReconciliationMark? {
        try base.reconciliationMark(kind: kind, key: key)
    }

    func reconciliationMarks() throws -> [ReconciliationMark] {
        try base.reconciliationMarks()
    }

    func consumptionRequests() throws -> [ConsumptionRequestRecord] {
        try base.consumptionRequests()
    }

    func dueConsumptionRequests(at now: Int64) throws -> [ConsumptionRequestRecord] {
        try base.dueConsumptionRequests(at: now)
    }

    func renewalExtensions() throws -> [RenewalExtensionRecord] {
        try base.renewalExtensions()
    }

    func exposures(customerID: String) throws -> [ExperimentExposure] {
        try base.exposures(customerID: customerID)
    }

    func exposures() throws -> [ExperimentExposure] {
        try base.exposures()
    }

    func experimentPhases(experiment: String?) throws -> [ExperimentPhaseRecord] {
        try base.experimentPhases(experiment: experiment)
    }

    func outgoingEvents(_ query: OutgoingEventQuery) throws -> [OutgoingEvent] {
        try base.outgoingEvents(query)
    }

    func customersToReview(at now: Int64, limit: Int) throws -> [String] {
        try base.customersToReview(at: now, limit: limit)
    }

    func outgoingEventBacklog(at now: Int64) throws -> OutgoingEventBacklog {
        try base.outgoingEventBacklog(at: now)
    }

    func outgoingEventStates() throws -> [OutgoingEventStateRecord] {
        try base.outgoingEventStates()
    }

    func hasOutgoingEventStates() throws -> Bool {
        try base.hasOutgoingEventStates()
    }

    /// The stored rows' aggregates: a report reads what is stored.
    func experimentAggregates(_ query: ExperimentAggregatesQuery, counting part: ExperimentAggregatesPart) throws -> ExperimentAggregateFigures {
        try base.experimentAggregates(query, counting: part)
    }

    /// The stored rows' events: a report reads what is stored.
    func subscriptionMetricEvents(_ query: SubscriptionMetricsQuery) throws -> [SubscriptionMetricEvent] {
        try base.subscriptionMetricEvents(query)
    }

    func eventSummaries(customerID: String) throws -> [String: EventSummary] {
        try base.eventSummaries(customerID: customerID)
    }

    func eventNames(customerID: String) throws -> Set<String> {
        try base.eventNames(customerID: customerID)
    }

    func events() throws -> [MerchandisingEvent] {
        try base.events()
    }

    // MARK: - Order

    private var newCustomer: Customer {
        Customer(id: received.customerID, appAccountToken: nil, createdDate: Date(millisecondsSince1970: now))
    }

    /// Whether `first` comes before `second` in purchase order: by purchase date, ties by id.
    static func purchasedBefore(_ first: StoredTransaction, _ second: StoredTransaction) -> Bool {
        (first.purchaseDate, first.id) < (second.purchaseDate, second.id)
    }

    /// `stored` with `transaction` in its place in purchase order, unless a transaction with its
    /// id is there already.
    static func inPurchaseOrder(_ stored: [StoredTransaction], adding transaction: StoredTransaction) -> [StoredTransaction] {
        guard !stored.contains(where: { $0.id == transaction.id }) else { return stored }
        var merged = stored
        merged.insert(transaction, at: stored.firstIndex { purchasedBefore(transaction, $0) } ?? stored.endIndex)
        return merged
    }
}
