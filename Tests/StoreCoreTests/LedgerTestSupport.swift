import Foundation
@testable import StoreCore
import SQLiteLedger

/// Builders for the payloads the ledger tests ingest.
///
/// The ledger stores JWS strings verbatim and leaves verification to the layer before it, so
/// the tests use unsigned JWS (`alg: none`, RFC 7515 §A.5) whose payload is the real encoded
/// payload: distinct payloads give distinct strings, as signed ones would.
enum LedgerFixtures {
    /// Milliseconds since 1970 of a fixed day, as the base of every test date.
    static let baseMilliseconds: Int64 = 1_700_000_000_000

    /// A date `offset` milliseconds after the base.
    static func date(_ offset: Int64) -> Date {
        Date(millisecondsSince1970: baseMilliseconds + offset)
    }

    /// A transaction payload with the fields the ledger requires.
    static func transaction(
        id: String,
        originalID: String? = nil,
        productID: String = "com.example.pellets",
        type: TransactionProductType = .consumable,
        quantity: Int32 = 1,
        purchasedAt purchaseOffset: Int64 = 0,
        signedAt signedOffset: Int64 = 0,
        revokedAt revocationOffset: Int64? = nil,
        isUpgraded: Bool? = nil,
        appAccountToken: String? = nil,
        subscriptionGroupID: String? = nil
    ) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            originalTransactionId: originalID ?? id,
            transactionId: id,
            bundleId: "com.example",
            productId: productID,
            subscriptionGroupIdentifier: subscriptionGroupID,
            purchaseDate: date(purchaseOffset),
            originalPurchaseDate: date(purchaseOffset),
            quantity: quantity,
            type: type,
            appAccountToken: appAccountToken,
            inAppOwnershipType: .purchased,
            signedDate: date(signedOffset),
            revocationReason: revocationOffset == nil ? nil : .refundedDueToIssue,
            revocationDate: revocationOffset.map(date),
            isUpgraded: isUpgraded,
            environment: .sandbox)
    }

    /// A renewal info payload.
    static func renewalInfo(
        originalID: String, productID: String = "com.example.pass.monthly", signedAt signedOffset: Int64,
        autoRenew: AutoRenewStatus = .on
    ) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            originalTransactionId: originalID,
            autoRenewProductId: productID,
            productId: productID,
            autoRenewStatus: autoRenew,
            signedDate: date(signedOffset),
            environment: .sandbox,
            renewalDate: date(signedOffset + 86_400_000))
    }

    /// The unsigned compact JWS of `payload`.
    static func jws(_ payload: some Encodable) -> String {
        let header = base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let body = base64URL(try! SignedPayloadJSON.makeEncoder().encode(payload))
        return "\(header).\(body)."
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The grant policy of the tests: five pellets per consumable bought, nothing for other kinds.
    static func pelletsPolicy(_ transaction: StoredTransaction) -> [Grant] {
        transaction.productType == .consumable ? [Grant(item: "pellet", amount: 5 * transaction.purchasedQuantity)] : []
    }

    /// Checks from the tables themselves that every balance is the sum of its customer's grants
    /// minus the reversed ones, and that only finished transactions have grants. Returns the
    /// violations found (none when the ledger is consistent).
    static func invariantViolations(in ledger: Ledger) throws -> [String] {
        try ledger.sqlite.read { connection in
            var violations: [String] = []
            let balances = try connection.fetchAll(
                """
                SELECT b.customer_id, b.item, b.amount,
                    coalesce((SELECT sum(g.amount) FROM transaction_grant g
                              JOIN store_transaction t ON t.transaction_id = g.transaction_id
                              WHERE t.customer_id = b.customer_id AND g.item = b.item), 0)
                  - coalesce((SELECT sum(g.amount) FROM grant_reversal r
                              JOIN transaction_grant g ON g.transaction_id = r.transaction_id AND g.position = r.position
                              JOIN store_transaction t ON t.transaction_id = g.transaction_id
                              WHERE t.customer_id = b.customer_id AND g.item = b.item), 0) AS expected
                FROM balance b
                """)
            for row in balances {
                let (customer, item) = (try row.decode(String.self, column: "customer_id"), try row.decode(String.self, column: "item"))
                let (amount, expected) = (try row.decode(Int.self, column: "amount"), try row.decode(Int.self, column: "expected"))
                if amount != expected {
                    violations.append("the \(item) balance of \(customer) is \(amount); its grants minus reversals are \(expected)")
                }
            }
            let ungrantedWithGrants = try connection.fetchAll(
                """
                SELECT DISTINCT t.transaction_id FROM store_transaction t
                JOIN transaction_grant g ON g.transaction_id = t.transaction_id
                WHERE t.grant_state <> 'granted'
                """)
            for row in ungrantedWithGrants {
                violations.append("transaction \(try row.decode(String.self, at: 0)) has grants but is not granted")
            }
            let grantsWithoutBalance = try connection.fetchAll(
                """
                SELECT DISTINCT t.customer_id, g.item FROM transaction_grant g
                JOIN store_transaction t ON t.transaction_id = g.transaction_id
                WHERE NOT EXISTS (SELECT 1 FROM balance b WHERE b.customer_id = t.customer_id AND b.item = g.item)
                """)
            for row in grantsWithoutBalance {
                violations.append("\(try row.decode(String.self, at: 0)) has \(try row.decode(String.self, at: 1)) grants and no balance")
            }
            return violations
        }
    }
}

extension Ledger {
    /// The SQLite database of a test ledger, which these tests always keep in SQLite.
    var sqlite: Database {
        get throws {
            guard let database = sqliteDatabase else { throw NotSQLite() }
            return database
        }
    }

    /// A ledger kept in another storage than SQLite.
    struct NotSQLite: Error {}
}
