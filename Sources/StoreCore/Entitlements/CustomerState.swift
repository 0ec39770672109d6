import Foundation

/// What one customer owns at a date, computed as StoreKit 2 computes it on a device: current
/// entitlements, the status of each subscription group, introductory-offer eligibility, the
/// transaction history and the item balances.
///
/// Build it from the ledger with ``Ledger/customerState(customerID:catalog:at:signedData:)``, or from
/// records with ``init(customerID:transactions:renewalInfos:balances:catalog:at:)``. It is a
/// value: it does not change when the ledger does.
///
/// ## Time
/// `date` decides which periods are running: subscription periods (`expiresDate`), grace
/// periods (`gracePeriodExpiresDate`) and non-renewing periods. Every transaction and
/// revocation recorded counts, whatever its date, as in StoreKit's own queries, so a purchase
/// signed a moment ahead of the host's clock is already owned. Balances are the ledger's
/// balances when the state was built.
///
/// ## Current entitlements (StoreKit's `Transaction.currentEntitlements`)
/// - **Non-consumables**: the latest transaction of each product that is not revoked, bought
///   or shared through Family Sharing.
/// - **Auto-renewable subscriptions**: the latest transaction of every subscription whose
///   status gives service (``Product/SubscriptionInfo/RenewalState/subscribed`` or
///   ``Product/SubscriptionInfo/RenewalState/inGracePeriod``); see ``subscriptionStatuses``.
/// - **Non-renewing subscriptions**: of each product, the transaction that is not revoked and
///   whose period runs at `date`, the one ending last. The App Store does not know the period
///   of a non-renewing subscription; StoreRules reads it from the transaction's `expiresDate`,
///   which the local store writes. A transaction without `expiresDate` counts as running, as
///   StoreKit lists every non-renewing subscription and leaves its period to the app.
/// - **Consumables** are never entitlements; their grants are in ``balances``.
///
/// ## Subscription status (StoreKit's `Product.SubscriptionInfo.status`)
/// The auto-renewable transactions of a group — the group is the transaction's
/// `subscriptionGroupIdentifier`, else the catalog's group of its product; transactions with
/// neither belong to no group and give no service — form one subscription per original
/// transaction id. Each gets a ``Product/SubscriptionInfo/Status``: its latest transaction
/// (``Product/SubscriptionInfo/Status/latestTransaction(of:)``), its renewal info, and the
/// ``Product/SubscriptionInfo/RenewalState`` derived from both at `date`.
///
/// A group's statuses are ordered so the first one speaks for the group
/// (``subscriptionStatus(forGroup:)``): statuses that give service come first, the highest
/// level of service (lowest group level; unknown levels last) first among them; then the one
/// whose period ends last; then the customer's own purchase before a family-shared one; then
/// the greatest transaction id.
///
/// ## Introductory offers
/// Apple's rule: introductory offers are for customers who never subscribed to any
/// subscription of the group, which includes having received an introductory offer there. So
/// a customer is eligible in a group while none of their own auto-renewable transactions is
/// in it, refunded ones included. A subscription shared by a family member is the family
/// member's purchase and does not use up the customer's offer.
public struct CustomerState: Sendable, Hashable {
    /// The customer.
    public let customerID: String
    /// The date the state describes.
    public let date: Date
    /// Every transaction of the customer, oldest purchase first (StoreKit's `Transaction.all`).
    public let transactions: [StoredTransaction]
    /// The transactions that entitle the customer at ``date``, ordered by product id, then
    /// purchase date (StoreKit's `Transaction.currentEntitlements`).
    public let currentEntitlements: [StoredTransaction]
    /// The statuses of the customer's subscriptions by group id, the one speaking for the
    /// group first. Groups in which the customer never had a subscription are absent.
    public let subscriptionStatuses: [String: [Product.SubscriptionInfo.Status]]
    /// Introductory-offer eligibility by group id, for every group of the catalog and every
    /// group the customer has transactions in.
    public let introOfferEligibility: [String: Bool]
    /// Item balances (item → amount) granted to the customer, as the ledger holds them.
    public let balances: [String: Int]
    /// The customer's merchandising events by name (``Ledger/recordEvent(customerID:name:placement:at:)``).
    public let events: [String: EventSummary]
    /// The customer's exposures to experiments, by exposure time, then experiment and phase
    /// (``Ledger/recordExposures(_:phases:)``): the variant each was shown in each phase.
    public let exposures: [ExperimentExposure]
    /// Whether the ledger has recorded the customer; a customer it has never seen has an
    /// empty state and is not known.
    public let isKnown: Bool

    /// Computes the state of `customerID` at `date` from their records.
    ///
    /// - Parameters:
    ///   - customerID: the customer.
    ///   - transactions: every transaction of the customer, in any order.
    ///   - renewalInfos: the renewal infos of the customer's auto-renewable subscriptions.
    ///   - balances: the customer's item balances.
    ///   - events: the customer's merchandising events by name; none by default.
    ///   - exposures: the customer's exposures to experiments; none by default.
    ///   - isKnown: whether the ledger has recorded the customer; true by default.
    ///   - catalog: the products, for the groups and levels of subscriptions; optional.
    ///   - date: the date the state describes.
    /// - Throws: ``CustomerStateError`` when the customer id is empty, a transaction belongs
    ///   to another customer, a transaction or renewal info is given twice, or a renewal info
    ///   matches none of the customer's subscriptions.
    public init(
        customerID: String,
        transactions: [StoredTransaction],
        renewalInfos: [StoredRenewalInfo],
        balances: [String: Int],
        events: [String: EventSummary] = [:],
        exposures: [ExperimentExposure] = [],
        isKnown: Bool = true,
        catalog: Catalog?,
        at date: Date
    ) throws(CustomerStateError) {
        guard !customerID.isEmpty else { throw .emptyCustomerID }
        var transactionIDs = Set<String>()
        for transaction in transactions {
            guard transaction.customerID == customerID else {
                throw .transactionOfAnotherCustomer(
                    transactionID: transaction.id, owner: transaction.customerID, customerID: customerID)
            }
            guard transactionIDs.insert(transaction.id).inserted else { throw .duplicateTransaction(transaction.id) }
        }
        let subscriptionTransactions = transactions.filter { $0.productType == .autoRenewableSubscription }
        let subscriptionIDs = Set(subscriptionTransactions.map(\.originalID))
        var renewalInfoByOriginalID: [String: StoredRenewalInfo] = [:]
        for renewalInfo in renewalInfos {
            let originalID = renewalInfo.originalTransactionID
            guard subscriptionIDs.contains(originalID) else { throw .unrelatedRenewalInfo(originalTransactionID: originalID) }
            guard renewalInfoByOriginalID.updateValue(renewalInfo, forKey: originalID) == nil else {
                throw .duplicateRenewalInfo(originalTransactionID: originalID)
            }
        }

        self.customerID = customerID
        self.date = date
        self.transactions = transactions.sorted { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
        self.balances = balances
        self.events = events
        self.exposures = exposures.sorted(by: LedgerRecords.exposureOrder)
        self.isKnown = isKnown

        func groupID(of transaction: StoredTransaction) -> String? {
            transaction.subscriptionGroupID ?? catalog?.product(id: transaction.productID)?.subscription?.subscriptionGroupID
        }
        var chainsByGroup: [String: [String: [StoredTransaction]]] = [:]
        for transaction in subscriptionTransactions {
            guard let group = groupID(of: transaction) else { continue }
            chainsByGroup[group, default: [:]][transaction.originalID, default: []].append(transaction)
        }
        var statuses: [String: [Product.SubscriptionInfo.Status]] = [:]
        for (group, chains) in chainsByGroup {
            statuses[group] = chains.compactMap { originalID, chain in
                Product.SubscriptionInfo.Status(
                    subscriptionGroupID: group, transactions: chain, renewalInfo: renewalInfoByOriginalID[originalID],
                    catalog: catalog, at: date)
            }.sorted(by: Self.speaksBefore)
        }
        subscriptionStatuses = statuses

        var eligibility = Dictionary(uniqueKeysWithValues: (catalog?.subscriptionGroups ?? []).map { ($0.id, true) })
        for group in chainsByGroup.keys {
            eligibility[group] = true
        }
        for transaction in subscriptionTransactions where transaction.ownershipType != .familyShared {
            if let group = groupID(of: transaction) {
                eligibility[group] = false
            }
        }
        introOfferEligibility = eligibility

        let subscriptionEntitlements = statuses.values.joined().filter(\.givesService).map(\.transaction)
        let entitlements = Self.nonConsumableEntitlements(transactions)
            + Self.nonRenewingEntitlements(transactions, at: date)
            + subscriptionEntitlements
        currentEntitlements = entitlements.sorted { ($0.productID, $0.purchaseDate, $0.id) < ($1.productID, $1.purchaseDate, $1.id) }
    }

    // MARK: - Queries

    /// The product ids the customer is entitled to at ``date``, sorted, each once.
    public var entitledProductIDs: [String] {
        Array(Set(currentEntitlements.map(\.productID))).sorted()
    }

    /// Whether a current entitlement is for `productID`.
    public func isEntitled(to productID: String) -> Bool {
        currentEntitlements.contains { $0.productID == productID }
    }

    /// The customer's transactions for `productID`, oldest purchase first (StoreKit's
    /// `Transaction.all(for:)`).
    public func transactions(for productID: String) -> [StoredTransaction] {
        transactions.filter { $0.productID == productID }
    }

    /// The customer's latest transaction for `productID`: bought last, then the greatest
    /// transaction id (StoreKit's `Transaction.latest(for:)`), or `nil` when there is none.
    public func latestTransaction(for productID: String) -> StoredTransaction? {
        transactions(for: productID).last
    }

    /// The transactions whose grants are not recorded yet, oldest purchase first (StoreKit's
    /// `Transaction.unfinished`).
    public var unfinishedTransactions: [StoredTransaction] {
        transactions.filter { !$0.isFinished }
    }

    /// The status that speaks for `groupID` (the first of ``subscriptionStatuses(inGroup:)``),
    /// or `nil` when the customer never had a subscription in the group.
    public func subscriptionStatus(forGroup groupID: String) -> Product.SubscriptionInfo.Status? {
        subscriptionStatuses[groupID]?.first
    }

    /// Every status of the customer's subscriptions in `groupID`, the one speaking for the
    /// group first; empty when there is none.
    public func subscriptionStatuses(inGroup groupID: String) -> [Product.SubscriptionInfo.Status] {
        subscriptionStatuses[groupID] ?? []
    }

    /// Whether the customer can get the introductory offer of a subscription in `groupID`
    /// (StoreKit's `Product.SubscriptionInfo.isEligibleForIntroOffer(for:)`); `true` for a
    /// group the customer has no transactions in.
    public func isEligibleForIntroOffer(groupID: String) -> Bool {
        introOfferEligibility[groupID] ?? true
    }

    /// The customer's balance of `item` (zero when never granted).
    public func balance(of item: String) -> Int {
        balances[item] ?? 0
    }

    // MARK: - Rules

    /// Whether `lhs` comes before `rhs` in a group's statuses; see ``CustomerState``.
    private static func speaksBefore(_ lhs: Product.SubscriptionInfo.Status, _ rhs: Product.SubscriptionInfo.Status) -> Bool {
        if lhs.givesService != rhs.givesService { return lhs.givesService }
        if lhs.givesService, lhs.groupLevel != rhs.groupLevel {
            return (lhs.groupLevel ?? .max) < (rhs.groupLevel ?? .max)
        }
        let lhsEnd = lhs.expirationDate ?? lhs.transaction.purchaseDate
        let rhsEnd = rhs.expirationDate ?? rhs.transaction.purchaseDate
        if lhsEnd != rhsEnd { return lhsEnd > rhsEnd }
        if lhs.isFamilyShared != rhs.isFamilyShared { return !lhs.isFamilyShared }
        return lhs.transaction.id > rhs.transaction.id
    }

    /// Of each non-consumable product, the latest transaction that is not revoked.
    private static func nonConsumableEntitlements(_ transactions: [StoredTransaction]) -> [StoredTransaction] {
        latestByProduct(transactions.filter { $0.productType == .nonConsumable && !$0.isRevoked }) {
            ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id)
        }
    }

    /// Of each non-renewing subscription, the transaction not revoked whose period runs at
    /// `date` and ends last (no `expiresDate`: running, ending never).
    private static func nonRenewingEntitlements(_ transactions: [StoredTransaction], at date: Date) -> [StoredTransaction] {
        let running = transactions.filter { transaction in
            guard transaction.productType == .nonRenewingSubscription, !transaction.isRevoked else { return false }
            return transaction.expirationDate.map { date < $0 } ?? true
        }
        return latestByProduct(running) {
            ($0.expirationDate ?? .distantFuture, $0.purchaseDate, $0.id) < ($1.expirationDate ?? .distantFuture, $1.purchaseDate, $1.id)
        }
    }

    /// The greatest transaction of each product under `order`.
    private static func latestByProduct(
        _ transactions: [StoredTransaction], by order: (StoredTransaction, StoredTransaction) -> Bool
    ) -> [StoredTransaction] {
        Dictionary(grouping: transactions, by: \.productID).values.compactMap { $0.max(by: order) }
    }
}
