import Foundation
import SignedData

/// A customer's snapshot as one statement on either database: each kind of row gathered into
/// a JSON array by the database (``LedgerSQLFragment/jsonArray(columns:)``), read back as
/// records through ``LedgerRecords``. One statement is one round trip, and sees one moment of
/// the database without a transaction around it.
enum CustomerSnapshotStatement {
    /// The statement for `customerID`.
    static func statement(customerID: String) -> LedgerSQL {
        """
        SELECT
          \(sql: stateSourceColumns(customerID: customerID, transactions: allTransactions(customerID: customerID))),
          (SELECT \(.jsonArray(columns: ["name", "event_count", "last_date"])) FROM (
             \(sql: LedgerRecords.eventCountsQuery(customerID: customerID))) AS c
          ) AS event_counts,
          (SELECT \(.jsonArray(columns: ["name", "occurred_date"])) FROM (
             \(sql: LedgerRecords.recentEventsQuery(customerID: customerID))) AS e
          ) AS recent_events,
          (SELECT \(.jsonArray(columns: exposureColumns)) FROM (
             SELECT \(sql: LedgerRecords.exposureColumns) FROM experiment_exposure WHERE customer_id = \(customerID)) AS x
          ) AS exposures,
          EXISTS (SELECT 1 FROM customer WHERE id = \(customerID)) AS known
        """
    }

    /// The columns `transactions`, `renewal_infos` and `balances` of what `customerID`'s
    /// reported state is derived from: their transactions that can speak for it
    /// (``reportedStateTransactions(customerID:)``) without signed data, their subscriptions'
    /// renewal infos and their balances.
    static func reportedStateSourceColumns(customerID: String) -> LedgerSQL {
        stateSourceColumns(customerID: customerID, transactions: reportedStateTransactions(customerID: customerID))
    }

    /// Every transaction of `customerID` without signed data, oldest purchase first.
    static func allTransactions(customerID: String) -> LedgerSQL {
        """
        SELECT \(sql: LedgerRecords.transactionColumnsWithoutSignedData) FROM store_transaction
        WHERE customer_id = \(customerID) ORDER BY purchase_date, transaction_id\(.binaryCollation)
        """
    }

    /// The transactions of `customerID` that can speak for their entitlements and subscription
    /// statuses, without signed data, oldest purchase first: every one but consumables (never
    /// an entitlement) and the auto-renewable transactions that cannot be their subscription's
    /// latest (``Product/SubscriptionInfo/Status/latestTransaction(of:)``) because a transaction
    /// of the same subscription in the same group, not upgraded, ends strictly later. So a
    /// customer's years of renewals cost one transaction a subscription, and a
    /// ``CustomerState`` built from these has the entitlements and statuses of one built from all.
    static func reportedStateTransactions(customerID: String) -> LedgerSQL {
        let subscription = TransactionProductType.autoRenewableSubscription.rawValue
        return """
            SELECT \(sql: LedgerRecords.transactionColumnsWithoutSignedData) FROM store_transaction AS t
            WHERE customer_id = \(customerID) AND product_type <> \(TransactionProductType.consumable.rawValue)
              AND NOT (product_type = \(subscription) AND EXISTS (
                SELECT 1 FROM store_transaction AS later
                WHERE later.original_transaction_id = t.original_transaction_id AND later.customer_id = t.customer_id
                  AND later.product_type = \(subscription) AND later.is_upgraded = \(false)
                  AND (later.subscription_group_id = t.subscription_group_id
                       OR (later.subscription_group_id IS NULL AND t.subscription_group_id IS NULL AND later.product_id = t.product_id))
                  AND COALESCE(later.expires_date, later.purchase_date) > COALESCE(t.expires_date, t.purchase_date)))
            ORDER BY purchase_date, transaction_id\(.binaryCollation)
            """
    }

    /// The columns `transactions` (as `transactions` selects them), `renewal_infos` and
    /// `balances` of `customerID`.
    private static func stateSourceColumns(customerID: String, transactions: LedgerSQL) -> LedgerSQL {
        let subscription = TransactionProductType.autoRenewableSubscription.rawValue
        return """
            (SELECT \(.jsonArray(columns: transactionColumns)) FROM (\(sql: transactions)) AS t) AS transactions,
            (SELECT \(.jsonArray(columns: renewalInfoColumns)) FROM (
               SELECT \(sql: LedgerRecords.renewalInfoColumns) FROM renewal_info WHERE original_transaction_id IN (
                 SELECT original_transaction_id FROM store_transaction
                 WHERE customer_id = \(customerID) AND product_type = \(subscription))
               ORDER BY original_transaction_id\(.binaryCollation)) AS r
            ) AS renewal_infos,
            (SELECT \(.jsonArray(columns: ["item", "amount"])) FROM (
               SELECT item, amount FROM balance WHERE customer_id = \(customerID) AND amount <> 0) AS b
            ) AS balances
            """
    }

    /// The snapshot the statement's one row describes, in the snapshot's orders whatever order
    /// the database gathered the rows in.
    static func snapshot(from row: some LedgerRecordRow) throws -> CustomerSnapshot {
        let column = { (name: String) in try JSONRecordRow.rows(ofArray: try row.optionalText(name)) }
        let (transactions, renewalInfos, balances) = try stateSources(from: row)
        var events = try LedgerRecords.eventSummaries(counts: try column("event_counts"), recent: try column("recent_events"))
        for name in events.keys { events[name]?.recent.sort(by: >) }
        let exposures = try column("exposures").map(LedgerRecords.exposure(from:)).sorted(by: LedgerRecords.exposureOrder)
        return CustomerSnapshot(
            transactions: transactions, renewalInfos: renewalInfos, balances: balances,
            events: events, exposures: exposures, isKnown: try row.flag("known"))
    }

    /// The state sources a row of either statement holds, in the snapshot's orders.
    static func stateSources(from row: some LedgerRecordRow) throws -> CustomerStateSources {
        let column = { (name: String) in try JSONRecordRow.rows(ofArray: try row.optionalText(name)) }
        let transactions = try column("transactions").map(LedgerRecords.transaction(from:)).sorted { first, second in
            first.purchaseDate != second.purchaseDate
                ? first.purchaseDate < second.purchaseDate : first.id.utf8.lexicographicallyPrecedes(second.id.utf8)
        }
        let renewalInfos = try column("renewal_infos").map(LedgerRecords.renewalInfo(from:)).sorted {
            $0.originalTransactionID.utf8.lexicographicallyPrecedes($1.originalTransactionID.utf8)
        }
        let balances = try column("balances").map { (try $0.text("item"), Int(try $0.integer("amount"))) }
        return (transactions, renewalInfos, Dictionary(balances, uniquingKeysWith: +))
    }

    private static let transactionColumns = LedgerRecords.columnNames(of: LedgerRecords.transactionColumns)
    private static let renewalInfoColumns = LedgerRecords.columnNames(of: LedgerRecords.renewalInfoColumns)
    private static let exposureColumns = LedgerRecords.columnNames(of: LedgerRecords.exposureColumns)
}

/// What a customer's state is derived from: their transactions without signed data (oldest
/// first; all of them, or those that can speak for the reported state), their subscriptions'
/// renewal infos and their balances that are not zero.
public typealias CustomerStateSources = (transactions: [StoredTransaction], renewalInfos: [StoredRenewalInfo], balances: [String: Int])

extension SQLLedgerTransaction {
    /// The customer's snapshot without signed transactions, read in one statement
    /// (``CustomerSnapshotStatement``): one round trip where a statement is one.
    public func customerSnapshotInOneStatement(customerID: String) throws -> CustomerSnapshot {
        guard let row = try connection.firstRow(CustomerSnapshotStatement.statement(customerID: customerID)) else {
            throw LedgerStorageFailure(kind: .permanent, message: "the customer's snapshot returned no row")
        }
        return try CustomerSnapshotStatement.snapshot(from: row)
    }
}
