import Foundation
import SignedData

/// The ledger's records as rows of any storage: which columns are read, and how a row becomes
/// a record. Both storages keep the same columns under the same names, dates as epoch
/// milliseconds.
public enum LedgerRecords {
    /// The names of the columns a list such as ``transactionColumns`` selects, an `AS` alias
    /// named by its alias.
    public static func columnNames(of list: String) -> [String] {
        list.split(separator: ",").map { column in
            String(column.split(whereSeparator: \.isWhitespace).last ?? "")
        }
    }

    /// The columns of a customer.
    public static let customerColumns = "id, app_account_token, created_date"

    /// The columns of a stored transaction.
    public static let transactionColumns = """
        transaction_id, original_transaction_id, customer_id, product_id, product_type, subscription_group_id,
        purchase_date, original_purchase_date, expires_date, quantity, revocation_date, revocation_reason,
        is_upgraded, ownership_type, offer_type, offer_id, app_account_token, environment, signed_date, jws,
        grant_state, unfinished_reason, unfinished_detail, price, currency, offer_discount_type, storefront
        """

    /// ``transactionColumns``, each named with its table, for a statement that joins others.
    public static let qualifiedTransactionColumns = columnNames(of: transactionColumns)
        .map { "store_transaction.\($0)" }.joined(separator: ", ")

    /// ``transactionColumns`` with an empty text in place of the JWS.
    public static let transactionColumnsWithoutSignedData = transactionColumns.replacingOccurrences(of: " jws,", with: " '' AS jws,")

    /// The columns of a renewal info.
    public static let renewalInfoColumns = """
        original_transaction_id, product_id, auto_renew_product_id, auto_renew_status, expiration_intent,
        is_in_billing_retry_period, price_increase_status, grace_period_expires_date, offer_type, offer_id,
        environment, recent_subscription_start_date, renewal_date, app_account_token, signed_date, jws,
        eligible_win_back_offer_ids
        """

    /// The columns of a transaction version.
    public static let versionColumns = "transaction_id, jws, signed_date, revocation_date, received_date"

    /// The columns of a processed notification.
    public static let processedNotificationColumns = "notification_uuid, notification_type, subtype, signed_date, processed_date"

    /// The columns of a pending notification.
    public static let pendingNotificationColumns = """
        notification_uuid, notification_type, subtype, signed_date, transaction_jws, transaction_id, \
        original_transaction_id, app_account_token, received_date
        """

    /// The columns of a notification kept for a conflict.
    public static let notificationConflictColumns =
        "notification_uuid, notification_type, subtype, transaction_id, field, stored, received, transaction_jws, received_date"

    /// The columns of a refund request.
    public static let consumptionRequestColumns = """
        notification_uuid, transaction_id, original_transaction_id, transaction_jws, reason, received_date, deadline_date, \
        state, answer, policy_version, attempts, last_error, next_attempt_date, answered_date
        """

    /// A refund request, from its row.
    public static func consumptionRequest(from row: some LedgerRecordRow) throws -> ConsumptionRequestRecord {
        let answer = try row.optionalText("answer").flatMap { try? JSONDecoder().decode(ConsumptionAnswer.self, from: Data($0.utf8)) }
        return ConsumptionRequestRecord(
            notificationUUID: try row.text("notification_uuid"), transactionID: try row.text("transaction_id"),
            originalTransactionID: try row.text("original_transaction_id"), transactionJWS: try row.text("transaction_jws"),
            reason: try row.optionalText("reason"), receivedDate: try row.integer("received_date"),
            deadlineDate: try row.integer("deadline_date"),
            state: ConsumptionRequestRecord.State(rawValue: try row.text("state")) ?? .pending, answer: answer,
            policyVersion: try row.optionalText("policy_version"), attempts: Int(try row.integer("attempts")),
            lastError: try row.optionalText("last_error"), nextAttemptDate: try row.integer("next_attempt_date"),
            answeredDate: try row.optionalInteger("answered_date"))
    }

    /// The columns of a renewal extension request.
    public static let renewalExtensionColumns = """
        request_identifier, incident_digest, original_transaction_id, customer_id, product_id, storefronts, days, reason_code, \
        state, effective_date, detail, updated_date
        """

    /// A renewal extension request, from its row.
    public static func renewalExtension(from row: some LedgerRecordRow) throws -> RenewalExtensionRecord {
        RenewalExtensionRecord(
            requestIdentifier: try row.text("request_identifier"), incidentDigest: try row.text("incident_digest"),
            originalTransactionID: try row.optionalText("original_transaction_id"), customerID: try row.optionalText("customer_id"),
            productID: try row.text("product_id"),
            storefronts: try row.optionalText("storefronts").map { $0.split(separator: ",").map(String.init) },
            days: Int(try row.integer("days")), reasonCode: Int(try row.integer("reason_code")),
            state: RenewalExtensionRecord.State(rawValue: try row.text("state")) ?? .failed,
            effectiveDate: try row.optionalInteger("effective_date"), detail: try row.optionalText("detail"),
            updatedDate: try row.integer("updated_date"))
    }

    /// A consumption answer as the ledger keeps it: Apple's JSON body, keys sorted.
    public static func text(of answer: ConsumptionAnswer?) -> String? {
        guard let answer else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(answer)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A reconciliation mark, from its row.
    public static func reconciliationMark(from row: some LedgerRecordRow) throws -> ReconciliationMark {
        ReconciliationMark(key: try row.text("mark_key"), kind: ReconciliationMark.Kind(rawValue: try row.text("kind")) ?? .checkpoint,
                           value: try row.text("value"), updatedDate: try row.integer("updated_date"))
    }

    /// A notification kept for a conflict, from its row.
    public static func notificationConflict(from row: some LedgerRecordRow) throws -> NotificationConflict {
        NotificationConflict(
            uuid: try row.text("notification_uuid"), type: try row.optionalText("notification_type"),
            subtype: try row.optionalText("subtype"), transactionID: try row.text("transaction_id"), field: try row.text("field"),
            stored: try row.text("stored"), received: try row.text("received"), transactionJWS: try row.text("transaction_jws"),
            receivedDate: try row.integer("received_date"))
    }

    /// A customer, from its row.
    public static func customer(from row: some LedgerRecordRow) throws -> Customer {
        Customer(id: try row.text("id"), appAccountToken: try row.optionalText("app_account_token"),
                 createdDate: try date(row, "created_date"))
    }

    /// A stored transaction, from its row.
    public static func transaction(from row: some LedgerRecordRow) throws -> StoredTransaction {
        StoredTransaction(
            id: try row.text("transaction_id"),
            originalID: try row.text("original_transaction_id"),
            customerID: try row.text("customer_id"),
            productID: try row.text("product_id"),
            productType: TransactionProductType(rawValue: try row.text("product_type")),
            subscriptionGroupID: try row.optionalText("subscription_group_id"),
            purchaseDate: try date(row, "purchase_date"),
            originalPurchaseDate: try optionalDate(row, "original_purchase_date"),
            expirationDate: try optionalDate(row, "expires_date"),
            purchasedQuantity: Int(try row.integer("quantity")),
            revocationDate: try optionalDate(row, "revocation_date"),
            revocationReason: try optionalInt(row, "revocation_reason").map(RevocationReason.init(rawValue:)),
            isUpgraded: try row.flag("is_upgraded"),
            ownershipType: try row.optionalText("ownership_type").map(InAppOwnershipType.init(rawValue:)),
            offerType: try optionalInt(row, "offer_type").map(OfferType.init(rawValue:)),
            offerID: try row.optionalText("offer_id"),
            price: try row.optionalInteger("price"),
            currency: try row.optionalText("currency"),
            offerDiscountType: try row.optionalText("offer_discount_type").map(OfferDiscountType.init(rawValue:)),
            storefront: try row.optionalText("storefront"),
            appAccountToken: try row.optionalText("app_account_token"),
            environment: AppStoreEnvironment(rawValue: try row.text("environment")),
            signedDate: try date(row, "signed_date"),
            jwsRepresentation: try row.text("jws"),
            grantState: GrantState(
                column: try row.text("grant_state"), reason: try row.optionalText("unfinished_reason"),
                detail: try row.optionalText("unfinished_detail")))
    }

    /// A transaction version, from its row.
    public static func version(from row: some LedgerRecordRow) throws -> TransactionVersion {
        TransactionVersion(
            transactionID: try row.text("transaction_id"), jwsRepresentation: try row.text("jws"),
            signedDate: try date(row, "signed_date"), revocationDate: try optionalDate(row, "revocation_date"),
            receivedDate: try date(row, "received_date"))
    }

    /// A grant, from its row (`item`, `amount`).
    public static func grant(from row: some LedgerRecordRow) throws -> Grant {
        Grant(item: try row.text("item"), amount: Int(try row.integer("amount")))
    }

    /// A renewal info, from its row.
    public static func renewalInfo(from row: some LedgerRecordRow) throws -> StoredRenewalInfo {
        StoredRenewalInfo(
            originalTransactionID: try row.text("original_transaction_id"),
            currentProductID: try row.optionalText("product_id"),
            autoRenewPreference: try row.optionalText("auto_renew_product_id"),
            autoRenewStatus: try optionalInt(row, "auto_renew_status").map(AutoRenewStatus.init(rawValue:)),
            expirationReason: try optionalInt(row, "expiration_intent").map(ExpirationIntent.init(rawValue:)),
            isInBillingRetry: try row.optionalFlag("is_in_billing_retry_period"),
            priceIncreaseStatus: try optionalInt(row, "price_increase_status").map(PriceIncreaseStatus.init(rawValue:)),
            gracePeriodExpirationDate: try optionalDate(row, "grace_period_expires_date"),
            offerType: try optionalInt(row, "offer_type").map(OfferType.init(rawValue:)),
            offerID: try row.optionalText("offer_id"),
            environment: try row.optionalText("environment").map(AppStoreEnvironment.init(rawValue:)),
            recentSubscriptionStartDate: try optionalDate(row, "recent_subscription_start_date"),
            renewalDate: try optionalDate(row, "renewal_date"),
            appAccountToken: try row.optionalText("app_account_token"),
            eligibleWinBackOfferIDs: try row.optionalText("eligible_win_back_offer_ids").map(offerIDs(fromJSON:)) ?? [],
            signedDate: try date(row, "signed_date"),
            jwsRepresentation: try row.text("jws"))
    }

    /// A processed notification, from its row.
    public static func processedNotification(from row: some LedgerRecordRow) throws -> ProcessedNotification {
        ProcessedNotification(
            uuid: try row.text("notification_uuid"), type: try row.optionalText("notification_type"),
            subtype: try row.optionalText("subtype"), signedDate: try row.optionalInteger("signed_date"),
            processedDate: try row.integer("processed_date"))
    }

    /// A pending notification, from its row.
    public static func pendingNotification(from row: some LedgerRecordRow) throws -> PendingNotification {
        PendingNotification(
            uuid: try row.text("notification_uuid"), type: try row.optionalText("notification_type"),
            subtype: try row.optionalText("subtype"), signedDate: try row.optionalInteger("signed_date"),
            transactionJWS: try row.text("transaction_jws"), transactionID: try row.text("transaction_id"),
            originalTransactionID: try row.text("original_transaction_id"),
            appAccountToken: try row.optionalText("app_account_token"), receivedDate: try row.integer("received_date"))
    }

    /// Offer ids as the `eligible_win_back_offer_ids` column keeps them: a JSON array of
    /// strings, or `nil` for none.
    public static func offerIDsJSON(_ ids: [String]) -> String? {
        guard !ids.isEmpty, let data = try? JSONEncoder().encode(ids) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The offer ids of an `eligible_win_back_offer_ids` value.
    private static func offerIDs(fromJSON text: String) throws -> [String] {
        do {
            return try JSONDecoder().decode([String].self, from: Data(text.utf8))
        } catch {
            throw LedgerStorageFailure(message: "eligible_win_back_offer_ids is not a JSON array of strings: \(text.prefix(80))",
                                       isTransient: false)
        }
    }

    private static func date(_ row: some LedgerRecordRow, _ column: String) throws -> Date {
        Date(millisecondsSince1970: try row.integer(column))
    }

    private static func optionalDate(_ row: some LedgerRecordRow, _ column: String) throws -> Date? {
        try row.optionalInteger(column).map(Date.init(millisecondsSince1970:))
    }

    private static func optionalInt(_ row: some LedgerRecordRow, _ column: String) throws -> Int? {
        try row.optionalInteger(column).map { Int(truncatingIfNeeded: $0) }
    }
}
