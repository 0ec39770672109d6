import Foundation

/// The ledger's records as SQLite rows: which columns are read, and how a row becomes a
/// record and a grant state becomes columns.
enum SQLiteLedgerRows {
    static let customerColumns = "id, app_account_token, created_date"

    static let transactionColumns = """
        transaction_id, original_transaction_id, customer_id, product_id, product_type, subscription_group_id,
        purchase_date, original_purchase_date, expires_date, quantity, revocation_date, revocation_reason,
        is_upgraded, ownership_type, offer_type, offer_id, app_account_token, environment, signed_date, jws,
        grant_state, unfinished_reason, unfinished_detail
        """

    static let renewalInfoColumns = """
        original_transaction_id, product_id, auto_renew_product_id, auto_renew_status, expiration_intent,
        is_in_billing_retry_period, price_increase_status, grace_period_expires_date, offer_type, offer_id,
        environment, recent_subscription_start_date, renewal_date, app_account_token, signed_date, jws
        """

    static func customer(from row: Row) throws -> Customer {
        Customer(
            id: try row.decode(column: "id"),
            appAccountToken: try row.decode(column: "app_account_token"),
            createdDate: try date(row, "created_date"))
    }

    static func transaction(from row: Row) throws -> StoredTransaction {
        StoredTransaction(
            id: try row.decode(column: "transaction_id"),
            originalID: try row.decode(column: "original_transaction_id"),
            customerID: try row.decode(column: "customer_id"),
            productID: try row.decode(column: "product_id"),
            productType: TransactionProductType(rawValue: try row.decode(column: "product_type")),
            subscriptionGroupID: try row.decode(column: "subscription_group_id"),
            purchaseDate: try date(row, "purchase_date"),
            originalPurchaseDate: try optionalDate(row, "original_purchase_date"),
            expirationDate: try optionalDate(row, "expires_date"),
            purchasedQuantity: try row.decode(column: "quantity"),
            revocationDate: try optionalDate(row, "revocation_date"),
            revocationReason: try row.decode(Int?.self, column: "revocation_reason").map(RevocationReason.init(rawValue:)),
            isUpgraded: try row.decode(column: "is_upgraded"),
            ownershipType: try row.decode(String?.self, column: "ownership_type").map(InAppOwnershipType.init(rawValue:)),
            offerType: try row.decode(Int?.self, column: "offer_type").map(OfferType.init(rawValue:)),
            offerID: try row.decode(column: "offer_id"),
            appAccountToken: try row.decode(column: "app_account_token"),
            environment: AppStoreEnvironment(rawValue: try row.decode(column: "environment")),
            signedDate: try date(row, "signed_date"),
            jwsRepresentation: try row.decode(column: "jws"),
            grantState: try GrantState(
                column: try row.decode(column: "grant_state"), reason: try row.decode(column: "unfinished_reason"),
                detail: try row.decode(column: "unfinished_detail")))
    }

    static func version(from row: Row) throws -> TransactionVersion {
        TransactionVersion(
            transactionID: try row.decode(column: "transaction_id"),
            jwsRepresentation: try row.decode(column: "jws"),
            signedDate: try date(row, "signed_date"),
            revocationDate: try optionalDate(row, "revocation_date"),
            receivedDate: try date(row, "received_date"))
    }

    static func grant(from row: Row) throws -> Grant {
        Grant(item: try row.decode(column: "item"), amount: try row.decode(column: "amount"))
    }

    static func renewalInfo(from row: Row) throws -> StoredRenewalInfo {
        StoredRenewalInfo(
            originalTransactionID: try row.decode(column: "original_transaction_id"),
            currentProductID: try row.decode(column: "product_id"),
            autoRenewPreference: try row.decode(column: "auto_renew_product_id"),
            autoRenewStatus: try row.decode(Int?.self, column: "auto_renew_status").map(AutoRenewStatus.init(rawValue:)),
            expirationReason: try row.decode(Int?.self, column: "expiration_intent").map(ExpirationIntent.init(rawValue:)),
            isInBillingRetry: try row.decode(column: "is_in_billing_retry_period"),
            priceIncreaseStatus: try row.decode(Int?.self, column: "price_increase_status")
                .map(PriceIncreaseStatus.init(rawValue:)),
            gracePeriodExpirationDate: try optionalDate(row, "grace_period_expires_date"),
            offerType: try row.decode(Int?.self, column: "offer_type").map(OfferType.init(rawValue:)),
            offerID: try row.decode(column: "offer_id"),
            environment: try row.decode(String?.self, column: "environment").map(AppStoreEnvironment.init(rawValue:)),
            recentSubscriptionStartDate: try optionalDate(row, "recent_subscription_start_date"),
            renewalDate: try optionalDate(row, "renewal_date"),
            appAccountToken: try row.decode(column: "app_account_token"),
            signedDate: try date(row, "signed_date"),
            jwsRepresentation: try row.decode(column: "jws"))
    }

    static func pendingNotification(from row: Row) throws -> PendingNotification {
        PendingNotification(
            uuid: try row.decode(column: "notification_uuid"), type: try row.decode(column: "notification_type"),
            subtype: try row.decode(column: "subtype"), signedDate: try row.decode(column: "signed_date"),
            transactionJWS: try row.decode(column: "transaction_jws"), transactionID: try row.decode(column: "transaction_id"),
            originalTransactionID: try row.decode(column: "original_transaction_id"),
            appAccountToken: try row.decode(column: "app_account_token"), receivedDate: try row.decode(column: "received_date"))
    }

    /// A grant state as its three columns: `grant_state`, `unfinished_reason`, `unfinished_detail`.
    static func columns(of state: GrantState) -> (state: String, reason: String?, detail: String?) {
        let columns = state.columns
        return (columns.state, columns.reason, columns.detail)
    }

    private static func date(_ row: Row, _ column: String) throws -> Date {
        Date(millisecondsSince1970: try row.decode(Int64.self, column: column))
    }

    private static func optionalDate(_ row: Row, _ column: String) throws -> Date? {
        try row.decode(Int64?.self, column: column).map(Date.init(millisecondsSince1970:))
    }
}
