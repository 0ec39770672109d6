import Foundation
import StoreCore
import SQLiteLedger

/// A transaction the store issued, as `local_store_transaction` keeps it: the fields the
/// store queries, and the latest signed version.
struct TransactionRecord {
    var id: String
    var originalID: String
    var customerID: String
    var productID: String
    var productType: ProductType
    var groupID: String?
    var purchaseDate: Date
    var expirationDate: Date?
    var revocationDate: Date?
    var isUpgraded: Bool
    var offerType: OfferType?
    /// For a family member's copy, the purchaser's transaction it shares.
    var sharedFrom: String?
    var jws: String

    static let columns = """
        transaction_id, original_transaction_id, customer_id, product_id, product_type, group_id, purchase_date,
        expires_date, revocation_date, is_upgraded, offer_type, shared_from, jws
        """

    init(payload: JWSTransactionDecodedPayload, productType: ProductType, customerID: String, sharedFrom: String?,
         jws: String) {
        id = payload.transactionId ?? ""
        originalID = payload.originalTransactionId ?? ""
        self.customerID = customerID
        productID = payload.productId ?? ""
        self.productType = productType
        groupID = payload.subscriptionGroupIdentifier
        purchaseDate = payload.purchaseDate ?? .distantPast
        expirationDate = payload.expiresDate
        revocationDate = payload.revocationDate
        isUpgraded = payload.isUpgraded ?? false
        offerType = payload.offerType
        self.sharedFrom = sharedFrom
        self.jws = jws
    }

    init(row: Row) throws {
        id = try row.decode(column: "transaction_id")
        originalID = try row.decode(column: "original_transaction_id")
        customerID = try row.decode(column: "customer_id")
        productID = try row.decode(column: "product_id")
        productType = ProductType(rawValue: try row.decode(column: "product_type")) ?? .consumable
        groupID = try row.decode(column: "group_id")
        purchaseDate = Date(millisecondsSince1970: try row.decode(column: "purchase_date"))
        expirationDate = try row.decode(Int64?.self, column: "expires_date").map(Date.init(millisecondsSince1970:))
        revocationDate = try row.decode(Int64?.self, column: "revocation_date").map(Date.init(millisecondsSince1970:))
        isUpgraded = try row.decode(column: "is_upgraded")
        offerType = try row.decode(Int?.self, column: "offer_type").map(OfferType.init(rawValue:))
        sharedFrom = try row.decode(column: "shared_from")
        jws = try row.decode(column: "jws")
    }

    /// The decoded payload of the latest signed version.
    func payload() throws -> JWSTransactionDecodedPayload {
        try CompactJWS(parsing: jws).decodePayload(as: JWSTransactionDecodedPayload.self)
    }

    /// Inserts or replaces the row.
    func save(in connection: DatabaseConnection) throws {
        try connection.execute(
            """
            INSERT INTO local_store_transaction (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (transaction_id) DO UPDATE SET expires_date = excluded.expires_date,
                revocation_date = excluded.revocation_date, is_upgraded = excluded.is_upgraded, jws = excluded.jws
            """,
            [id, originalID, customerID, productID, productType.rawValue, groupID, purchaseDate.millisecondsSince1970,
             expirationDate?.millisecondsSince1970, revocationDate?.millisecondsSince1970, isUpgraded,
             offerType?.rawValue, sharedFrom, jws])
    }
}

/// A customer's subscription in one group, as `local_store_subscription` keeps it.
struct SubscriptionRecord {
    var originalID: String
    var customerID: String
    var groupID: String
    var productID: String
    var autoRenewProductID: String
    var autoRenew: Bool
    var state: LocalStore.Subscription.State
    var latestTransactionID: String
    var originalPurchaseDate: Date
    var recentStartDate: Date
    var expirationDate: Date
    var gracePeriodExpirationDate: Date?
    var billingRetryExpirationDate: Date?
    var expirationIntent: ExpirationIntent?
    /// The offer that applies to the next renewals, with its spans left.
    var pendingOffer: AppliedOffer?
    var appAccountToken: String?
    /// For a family member's copy, the purchaser's original transaction id.
    var sharedFrom: String?
    var renewalInfoJWS: String?

    static let columns = """
        original_transaction_id, customer_id, group_id, product_id, auto_renew_product_id, auto_renew, phase,
        latest_transaction_id, original_purchase_date, recent_start_date, expires_date, grace_period_expires_date,
        billing_retry_expires_date, expiration_intent, offer_type, offer_id, offer_discount_type, offer_period,
        offer_price_milliunits, offer_periods_left, app_account_token, shared_from, renewal_info_jws
        """

    /// `column = excluded.column` for every column but the key.
    private static let updateAssignments = columns.split(separator: ",")
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        .filter { $0 != "original_transaction_id" }
        .map { "\($0) = excluded.\($0)" }
        .joined(separator: ", ")

    init(originalID: String, customerID: String, groupID: String, productID: String, latestTransactionID: String,
         purchaseDate: Date, expirationDate: Date, appAccountToken: String?, sharedFrom: String?) {
        self.originalID = originalID
        self.customerID = customerID
        self.groupID = groupID
        self.productID = productID
        autoRenewProductID = productID
        autoRenew = true
        state = .subscribed
        self.latestTransactionID = latestTransactionID
        originalPurchaseDate = purchaseDate
        recentStartDate = purchaseDate
        self.expirationDate = expirationDate
        self.appAccountToken = appAccountToken
        self.sharedFrom = sharedFrom
    }

    init(row: Row) throws {
        func date(_ column: String) throws -> Date? {
            try row.decode(Int64?.self, column: column).map(Date.init(millisecondsSince1970:))
        }
        originalID = try row.decode(column: "original_transaction_id")
        customerID = try row.decode(column: "customer_id")
        groupID = try row.decode(column: "group_id")
        productID = try row.decode(column: "product_id")
        autoRenewProductID = try row.decode(column: "auto_renew_product_id")
        autoRenew = try row.decode(column: "auto_renew")
        state = LocalStore.Subscription.State(rawValue: try row.decode(column: "phase")) ?? .expired
        latestTransactionID = try row.decode(column: "latest_transaction_id")
        originalPurchaseDate = try date("original_purchase_date") ?? .distantPast
        recentStartDate = try date("recent_start_date") ?? .distantPast
        expirationDate = try date("expires_date") ?? .distantPast
        gracePeriodExpirationDate = try date("grace_period_expires_date")
        billingRetryExpirationDate = try date("billing_retry_expires_date")
        expirationIntent = try row.decode(Int?.self, column: "expiration_intent").map(ExpirationIntent.init(rawValue:))
        let spansLeft: Int = try row.decode(column: "offer_periods_left")
        if spansLeft > 0, let type = try row.decode(Int?.self, column: "offer_type"),
           let discount = try row.decode(String?.self, column: "offer_discount_type"),
           let period = try row.decode(String?.self, column: "offer_period").flatMap(SubscriptionPeriod.init(iso8601:)) {
            pendingOffer = AppliedOffer(
                type: OfferType(rawValue: type), identifier: try row.decode(column: "offer_id"),
                discountType: OfferDiscountType(rawValue: discount), spanPeriod: period, spans: spansLeft,
                priceMilliunits: try row.decode(Int64?.self, column: "offer_price_milliunits") ?? 0)
        }
        appAccountToken = try row.decode(column: "app_account_token")
        sharedFrom = try row.decode(column: "shared_from")
        renewalInfoJWS = try row.decode(column: "renewal_info_jws")
    }

    /// Inserts or replaces the row.
    func save(in connection: DatabaseConnection) throws {
        let offer = pendingOffer
        try connection.execute(
            """
            INSERT INTO local_store_subscription (\(Self.columns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (original_transaction_id) DO UPDATE SET \(Self.updateAssignments)
            """,
            [originalID, customerID, groupID, productID, autoRenewProductID, autoRenew, state.rawValue,
             latestTransactionID, originalPurchaseDate.millisecondsSince1970, recentStartDate.millisecondsSince1970,
             expirationDate.millisecondsSince1970, gracePeriodExpirationDate?.millisecondsSince1970,
             billingRetryExpirationDate?.millisecondsSince1970, expirationIntent?.rawValue, offer?.type.rawValue,
             offer?.identifier, offer?.discountType.rawValue, offer?.spanPeriod.iso8601, offer?.priceMilliunits,
             offer?.spans ?? 0, appAccountToken, sharedFrom, renewalInfoJWS])
    }

    /// Starts a period of `productID` with the transaction `transactionID`: subscribed until
    /// `end`, no billing issue or expiration left, `offer` applying to the next renewals.
    mutating func beginPeriod(of productID: String, transactionID: String, until end: Date, pendingOffer offer: AppliedOffer?) {
        self.productID = productID
        state = .subscribed
        latestTransactionID = transactionID
        expirationDate = end
        gracePeriodExpirationDate = nil
        billingRetryExpirationDate = nil
        expirationIntent = nil
        pendingOffer = offer
    }

    /// Whether the subscription gives service or may again without a new purchase.
    var isLive: Bool { state == .subscribed || state == .inGracePeriod || state == .inBillingRetryPeriod }

    /// The public view of the record.
    var snapshot: LocalStore.Subscription {
        LocalStore.Subscription(
            originalTransactionID: originalID, customerID: customerID, groupID: groupID, productID: productID,
            autoRenewProductID: autoRenewProductID, willAutoRenew: autoRenew, state: state,
            latestTransactionID: latestTransactionID, expirationDate: expirationDate,
            gracePeriodExpirationDate: gracePeriodExpirationDate, billingRetryExpirationDate: billingRetryExpirationDate,
            expirationReason: expirationIntent, sharedFromOriginalTransactionID: sharedFrom)
    }
}
