import StoreCore

/// A customer's snapshot as one statement: each kind of row gathered into a JSON array by the
/// server, read back as records through ``StoreCore/LedgerRecords``. One statement is one
/// round trip, and sees one moment of the database without a transaction around it.
enum PostgresCustomerSnapshotQuery {
    /// The statement; `$1` is the customer, `$2` the product type of auto-renewable subscriptions.
    static let sql = """
        SELECT
          (SELECT json_agg(t ORDER BY t.purchase_date, t.transaction_id COLLATE "C")
             FROM (SELECT \(LedgerRecords.transactionColumnsWithoutSignedData) FROM store_transaction WHERE customer_id = $1) AS t
          ) AS transactions,
          (SELECT json_agg(r ORDER BY r.original_transaction_id COLLATE "C")
             FROM (SELECT \(LedgerRecords.renewalInfoColumns) FROM renewal_info WHERE original_transaction_id IN (
                     SELECT original_transaction_id FROM store_transaction WHERE customer_id = $1 AND product_type = $2)) AS r
          ) AS renewal_infos,
          (SELECT json_agg(b) FROM (SELECT item, amount FROM balance WHERE customer_id = $1 AND amount <> 0) AS b) AS balances,
          (SELECT json_agg(c) FROM (\(LedgerRecords.eventCountsQuery(placeholder: "$1"))) AS c) AS event_counts,
          (SELECT json_agg(e ORDER BY e.name, e.occurred_date DESC)
             FROM (\(LedgerRecords.recentEventsQuery(placeholder: "$1"))) AS e
          ) AS recent_events,
          EXISTS (SELECT 1 FROM customer WHERE id = $1) AS known
        """

    /// The statement's parameters for `customerID`.
    static func parameters(customerID: String) -> [PostgresValue?] {
        [.text(customerID), .text(TransactionProductType.autoRenewableSubscription.rawValue)]
    }

    /// The snapshot the statement's one row describes.
    static func snapshot(from row: PostgresRow) throws -> CustomerSnapshot {
        let column = { (name: String) in try JSONRecordRow.rows(ofArray: try row.decode(String?.self, column: name)) }
        let balances = try column("balances").map { (try $0.text("item"), Int(try $0.integer("amount"))) }
        return CustomerSnapshot(
            transactions: try column("transactions").map(LedgerRecords.transaction(from:)),
            renewalInfos: try column("renewal_infos").map(LedgerRecords.renewalInfo(from:)),
            balances: Dictionary(balances, uniquingKeysWith: +),
            events: try LedgerRecords.eventSummaries(counts: try column("event_counts"), recent: try column("recent_events")),
            isKnown: try row.decode(Bool.self, column: "known"))
    }
}
