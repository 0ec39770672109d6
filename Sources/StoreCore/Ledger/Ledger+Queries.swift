extension Ledger {
    /// The transaction with this id, or `nil` when none is stored.
    public func transaction(id: String) throws -> StoredTransaction? {
        try reading { try $0.transaction(id: id) }
    }

    /// Every transaction of a customer, oldest purchase first.
    public func transactions(customerID: String) throws -> [StoredTransaction] {
        try reading { try $0.transactions(.customer(customerID)) }
    }

    /// A customer's transactions for one product, oldest purchase first.
    public func transactions(customerID: String, productID: String) throws -> [StoredTransaction] {
        try reading { try $0.transactions(.customerProduct(customerID: customerID, productID: productID)) }
    }

    /// Every transaction sharing an original transaction id (a subscription's purchase and
    /// renewals), oldest purchase first.
    public func transactions(originalTransactionID: String) throws -> [StoredTransaction] {
        try reading { try $0.transactions(.original(originalTransactionID)) }
    }

    /// A customer's latest transaction for each product (StoreKit's `Transaction.latest(for:)`
    /// for every product at once), ordered by product id.
    public func latestTransactions(customerID: String) throws -> [StoredTransaction] {
        try reading { try $0.latestTransactions(customerID: customerID) }
    }

    /// A customer's latest transaction for one product, or `nil` when there is none.
    public func latestTransaction(customerID: String, productID: String) throws -> StoredTransaction? {
        try transactions(customerID: customerID, productID: productID).last
    }

    /// The unfinished transactions (of one customer, or of all), oldest purchase first.
    public func unfinishedTransactions(customerID: String? = nil) throws -> [StoredTransaction] {
        try reading { try $0.transactions(.unfinished(customerID: customerID)) }
    }

    /// Every signed version received for a transaction, oldest signature first.
    public func versions(ofTransaction transactionID: String) throws -> [TransactionVersion] {
        try reading { try $0.versions(ofTransaction: transactionID) }
    }

    /// The grants recorded for a transaction, in the order the decision listed them (empty
    /// when it granted nothing or is not granted yet).
    public func grants(ofTransaction transactionID: String) throws -> [Grant] {
        try reading { try $0.grants(ofTransaction: transactionID) }
    }

    /// The grants of a transaction that are reversed because it was refunded or revoked.
    public func reversedGrants(ofTransaction transactionID: String) throws -> [Grant] {
        try reading { try $0.reversedGrants(ofTransaction: transactionID) }
    }

    /// A customer's balance of every item whose balance is not zero: the sum of the grants minus
    /// the reversed ones (possibly negative). An item granted and wholly reversed reads as one
    /// never granted, so the state does not depend on the order deliveries arrived in (a refund
    /// delivered before its purchase grants nothing at all).
    public func balances(customerID: String) throws -> [String: Int] {
        try reading { try $0.balances(customerID: customerID) }
    }

    /// A customer's balance of one item (zero when never granted).
    public func balance(of item: String, customerID: String) throws -> Int {
        try balances(customerID: customerID)[item] ?? 0
    }

    /// The latest renewal info stored for a subscription, or `nil` when none is.
    public func renewalInfo(originalTransactionID: String) throws -> StoredRenewalInfo? {
        try reading { try $0.renewalInfo(originalTransactionID: originalTransactionID) }
    }

    /// Whether the notification with this UUID was processed.
    public func isNotificationProcessed(_ notificationUUID: String) throws -> Bool {
        try reading { try $0.isNotificationProcessed(notificationUUID) }
    }
}
