/// The ledger's tables, described once for both databases: the same tables, columns and
/// constraints on SQLite and PostgreSQL, each database's DDL made from them by its dialect.
/// Dates are integer milliseconds since 1970, as the App Store signs them.
///
/// The invariants the ledger keeps are written as constraints where SQL can say them:
/// - a transaction is unfinished exactly when it has an unfinished reason;
/// - a grant and a reversal belong to a stored transaction, and a grant is reversed at most once;
/// - a balance is the sum of its customer's grants minus the reversed ones (kept by ``Ledger``
///   in the same transaction that writes the grants or reversals).
///
/// A transaction's versions are keyed by the SHA-256 of their JWS (`jws_digest`): a signed JWS
/// with its certificate chain is longer than a PostgreSQL index entry may be, and SQLite would
/// keep it twice more in the key's index.
public enum LedgerSchemaDescription {
    /// The customers.
    public static let customer = LedgerTable("customer", [
        LedgerColumn("id", .text, primaryKey: true, check: "length(id) > 0"),
        LedgerColumn("app_account_token", .text, nullable: true, unique: true),
        LedgerColumn("created_date", .integer),
    ])

    /// The transactions, their grant state beside them.
    public static let storeTransaction = LedgerTable(
        "store_transaction",
        [
            LedgerColumn("transaction_id", .text, primaryKey: true),
            LedgerColumn("original_transaction_id", .text),
            LedgerColumn("customer_id", .text, references: "customer (id)"),
            LedgerColumn("product_id", .text),
            LedgerColumn("product_type", .text),
            LedgerColumn("subscription_group_id", .text, nullable: true),
            LedgerColumn("purchase_date", .integer),
            LedgerColumn("original_purchase_date", .integer, nullable: true),
            LedgerColumn("expires_date", .integer, nullable: true),
            LedgerColumn("quantity", .integer, check: "quantity >= 1"),
            LedgerColumn("revocation_date", .integer, nullable: true),
            LedgerColumn("revocation_reason", .integer, nullable: true),
            LedgerColumn("is_upgraded", .boolean),
            LedgerColumn("ownership_type", .text, nullable: true),
            LedgerColumn("offer_type", .integer, nullable: true),
            LedgerColumn("offer_id", .text, nullable: true),
            LedgerColumn("app_account_token", .text, nullable: true),
            LedgerColumn("environment", .text),
            LedgerColumn("signed_date", .integer),
            LedgerColumn("jws", .text),
            LedgerColumn("grant_state", .text, check: "grant_state IN ('unfinished', 'granted', 'revokedBeforeGrant')"),
            LedgerColumn("unfinished_reason", .text, nullable: true,
                         check: "unfinished_reason IN ('awaitingGrant', 'decisionFailed', 'invalidGrant')"),
            LedgerColumn("unfinished_detail", .text, nullable: true),
            LedgerColumn("grant_attempts", .integer, defaultValue: "0"),
            LedgerColumn("stored_date", .integer),
            LedgerColumn("finished_date", .integer, nullable: true),
            transactionPrice,
            transactionCurrency,
            transactionOfferDiscountType,
            transactionStorefront,
        ],
        constraints: ["CHECK ((grant_state = 'unfinished') = (unfinished_reason IS NOT NULL))"],
        indexes: [
            LedgerIndex("store_transaction_by_customer", on: "customer_id, product_id, purchase_date"),
            LedgerIndex("store_transaction_by_original", on: "original_transaction_id"),
            LedgerIndex("store_transaction_unfinished", on: "grant_state", where: "grant_state = 'unfinished'"),
        ])

    /// Every signed version received of a transaction.
    public static let transactionVersion = LedgerTable(
        "transaction_version",
        [
            LedgerColumn("transaction_id", .text, references: "store_transaction (transaction_id)"),
            LedgerColumn("jws_digest", .text),
            LedgerColumn("jws", .text),
            LedgerColumn("signed_date", .integer),
            LedgerColumn("revocation_date", .integer, nullable: true),
            LedgerColumn("received_date", .integer),
        ],
        constraints: ["PRIMARY KEY (transaction_id, jws_digest)"])

    /// The grants of a transaction, by position.
    public static let transactionGrant = LedgerTable(
        "transaction_grant",
        [
            LedgerColumn("transaction_id", .text, references: "store_transaction (transaction_id)"),
            LedgerColumn("position", .integer, check: "position >= 0"),
            LedgerColumn("item", .text, check: "length(item) > 0"),
            LedgerColumn("amount", .integer, check: "amount > 0"),
            LedgerColumn("granted_date", .integer),
        ],
        constraints: ["PRIMARY KEY (transaction_id, position)"])

    /// The grants reversed, each at most once.
    public static let grantReversal = LedgerTable(
        "grant_reversal",
        [
            LedgerColumn("transaction_id", .text),
            LedgerColumn("position", .integer),
            LedgerColumn("reversed_date", .integer),
        ],
        constraints: [
            "PRIMARY KEY (transaction_id, position)",
            "FOREIGN KEY (transaction_id, position) REFERENCES transaction_grant (transaction_id, position)",
        ])

    /// Each customer's balance of each item.
    public static let balance = LedgerTable(
        "balance",
        [
            LedgerColumn("customer_id", .text, references: "customer (id)"),
            LedgerColumn("item", .text),
            LedgerColumn("amount", .integer),
        ],
        constraints: ["PRIMARY KEY (customer_id, item)"])

    /// The latest signed renewal info of each subscription.
    public static let renewalInfo = LedgerTable("renewal_info", [
        LedgerColumn("original_transaction_id", .text, primaryKey: true),
        LedgerColumn("product_id", .text, nullable: true),
        LedgerColumn("auto_renew_product_id", .text, nullable: true),
        LedgerColumn("auto_renew_status", .integer, nullable: true),
        LedgerColumn("expiration_intent", .integer, nullable: true),
        LedgerColumn("is_in_billing_retry_period", .boolean, nullable: true),
        LedgerColumn("price_increase_status", .integer, nullable: true),
        LedgerColumn("grace_period_expires_date", .integer, nullable: true),
        LedgerColumn("offer_type", .integer, nullable: true),
        LedgerColumn("offer_id", .text, nullable: true),
        LedgerColumn("environment", .text, nullable: true),
        LedgerColumn("recent_subscription_start_date", .integer, nullable: true),
        LedgerColumn("renewal_date", .integer, nullable: true),
        LedgerColumn("app_account_token", .text, nullable: true),
        LedgerColumn("signed_date", .integer),
        LedgerColumn("jws", .text),
        LedgerColumn("stored_date", .integer),
        eligibleWinBackOfferIDs,
    ])

    /// The column a migration adds to `store_transaction`: what the customer paid, in
    /// milli-units (`price`), filled from each stored JWS.
    public static let transactionPrice = LedgerColumn("price", .integer, nullable: true)

    /// A column a migration adds to `store_transaction`: the ISO 4217 code of the price's
    /// currency (`currency`), filled from each stored JWS.
    public static let transactionCurrency = LedgerColumn("currency", .text, nullable: true)

    /// A column a migration adds to `store_transaction`: the kind of discount of the offer
    /// applied (`offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`), filled
    /// from each stored JWS.
    public static let transactionOfferDiscountType = LedgerColumn("offer_discount_type", .text, nullable: true)

    /// A column a migration adds to `store_transaction`: the three-letter code of the App Store
    /// storefront it was bought in (`storefront`), filled from each stored JWS.
    public static let transactionStorefront = LedgerColumn("storefront", .text, nullable: true)

    /// The column a migration adds to `renewal_info`: the eligible win-back offer ids, as a
    /// JSON array of strings; `NULL` for none.
    public static let eligibleWinBackOfferIDs = LedgerColumn("eligible_win_back_offer_ids", .text, nullable: true)

    /// The notifications processed, by UUID.
    public static let processedNotification = LedgerTable("processed_notification", [
        LedgerColumn("notification_uuid", .text, primaryKey: true),
        LedgerColumn("notification_type", .text, nullable: true),
        LedgerColumn("subtype", .text, nullable: true),
        LedgerColumn("signed_date", .integer, nullable: true),
        LedgerColumn("processed_date", .integer),
    ])

    /// The notifications kept for a customer not known yet.
    public static let pendingNotification = LedgerTable(
        "pending_notification",
        [
            LedgerColumn("notification_uuid", .text, primaryKey: true),
            LedgerColumn("notification_type", .text, nullable: true),
            LedgerColumn("subtype", .text, nullable: true),
            LedgerColumn("signed_date", .integer, nullable: true),
            LedgerColumn("transaction_jws", .text),
            LedgerColumn("transaction_id", .text),
            LedgerColumn("original_transaction_id", .text),
            LedgerColumn("app_account_token", .text, nullable: true),
            LedgerColumn("received_date", .integer),
        ],
        indexes: [
            LedgerIndex("pending_notification_by_original", on: "original_transaction_id"),
            LedgerIndex("pending_notification_by_token", on: "app_account_token"),
        ])

    /// The merchandising events, numbered in the order they were recorded.
    public static let merchandisingEvent = LedgerTable(
        "merchandising_event",
        [
            LedgerColumn("event_id", .identity),
            LedgerColumn("customer_id", .text, references: "customer (id)"),
            LedgerColumn("name", .text),
            LedgerColumn("placement", .text, nullable: true),
            LedgerColumn("occurred_date", .integer),
        ],
        indexes: [LedgerIndex("merchandising_event_by_customer", on: "customer_id, name, occurred_date")])

    /// The notifications kept because their transaction contradicts the stored one.
    public static let notificationConflict = LedgerTable("notification_conflict", [
        LedgerColumn("notification_uuid", .text, primaryKey: true),
        LedgerColumn("notification_type", .text, nullable: true),
        LedgerColumn("subtype", .text, nullable: true),
        LedgerColumn("transaction_id", .text),
        LedgerColumn("field", .text),
        LedgerColumn("stored", .text),
        LedgerColumn("received", .text),
        LedgerColumn("transaction_jws", .text),
        LedgerColumn("received_date", .integer),
    ])

    /// Where reconciling with the App Store Server API got to: a checkpoint, or a customer's
    /// transaction history revision (``ReconciliationMark``).
    public static let reconciliationMark = LedgerTable("reconciliation_mark", [
        LedgerColumn("kind", .text, check: "kind IN ('checkpoint', 'revision')"),
        LedgerColumn("mark_key", .text),
        LedgerColumn("value", .text),
        LedgerColumn("updated_date", .integer),
    ], constraints: ["PRIMARY KEY (kind, mark_key)"])

    /// The refund requests Apple asked about, and how answering each got on
    /// (``ConsumptionRequestRecord``).
    public static let consumptionRequest = LedgerTable(
        "consumption_request",
        [
            LedgerColumn("notification_uuid", .text, primaryKey: true),
            LedgerColumn("transaction_id", .text),
            LedgerColumn("original_transaction_id", .text),
            LedgerColumn("transaction_jws", .text),
            LedgerColumn("reason", .text, nullable: true),
            LedgerColumn("received_date", .integer),
            LedgerColumn("deadline_date", .integer),
            LedgerColumn("state", .text, check: "state IN ('pending', 'answered', 'unanswered', 'refused', 'expired')"),
            LedgerColumn("answer", .text, nullable: true),
            LedgerColumn("policy_version", .text, nullable: true),
            LedgerColumn("attempts", .integer),
            LedgerColumn("last_error", .text, nullable: true),
            LedgerColumn("next_attempt_date", .integer),
            LedgerColumn("answered_date", .integer, nullable: true),
        ],
        indexes: [LedgerIndex("consumption_request_due", on: "state, next_attempt_date")])

    /// The renewal extension requests sent for incidents (``RenewalExtensionRecord``).
    public static let renewalExtension = LedgerTable(
        "renewal_extension",
        [
            LedgerColumn("request_identifier", .text, primaryKey: true),
            LedgerColumn("incident_digest", .text),
            LedgerColumn("original_transaction_id", .text, nullable: true),
            LedgerColumn("customer_id", .text, nullable: true),
            LedgerColumn("product_id", .text),
            LedgerColumn("storefronts", .text, nullable: true),
            LedgerColumn("days", .integer),
            LedgerColumn("reason_code", .integer),
            LedgerColumn("state", .text, check: "state IN ('sent', 'failed')"),
            LedgerColumn("effective_date", .integer, nullable: true),
            LedgerColumn("detail", .text, nullable: true),
            LedgerColumn("updated_date", .integer),
        ])

    /// Each customer's first exposure to each phase of an experiment (``ExperimentExposure``):
    /// one row per customer, experiment and phase, which keeps the variant they were shown.
    /// A report reads a phase's exposures in customer order (``ExperimentReportIndex``).
    public static let experimentExposure = LedgerTable(
        "experiment_exposure",
        [
            LedgerColumn("customer_id", .text, references: "customer (id)"),
            LedgerColumn("experiment", .text),
            LedgerColumn("phase", .text),
            LedgerColumn("variant", .text),
            LedgerColumn("exposed_date", .integer),
            LedgerColumn("policy_version", .text),
            LedgerColumn("hook", .text),
            LedgerColumn("placement", .text, nullable: true),
        ],
        constraints: ["PRIMARY KEY (customer_id, experiment, phase)"],
        indexes: [ExperimentReportIndex.exposures])

    /// What each phase of an experiment declared when it was first recorded
    /// (``ExperimentPhaseRecord``): its variants and weights as a JSON array of
    /// `{"name", "weight"}` objects sorted by name, and its traffic.
    public static let experimentPhase = LedgerTable(
        "experiment_phase",
        [
            LedgerColumn("experiment", .text),
            LedgerColumn("phase", .text),
            LedgerColumn("variants", .text),
            LedgerColumn("traffic", .integer, check: "traffic BETWEEN 0 AND 100"),
            LedgerColumn("first_recorded_date", .integer),
        ],
        constraints: ["PRIMARY KEY (experiment, phase)"])

    /// The outbox: each event reported to the app's backend (``OutgoingEvent``), its exact body
    /// and where its delivery stands. A customer's events are numbered from 1, once each.
    public static let outgoingEvent = LedgerTable(
        "outgoing_event",
        [
            LedgerColumn("event_id", .text, primaryKey: true),
            LedgerColumn("customer_id", .text, references: "customer (id)"),
            LedgerColumn("sequence", .integer),
            LedgerColumn("event_type", .text),
            LedgerColumn("created_date", .integer),
            LedgerColumn("body", .text),
            LedgerColumn("state", .text, check: "state IN ('pending', 'delivered', 'failed', 'skipped')"),
            LedgerColumn("attempts", .integer),
            LedgerColumn("next_attempt_date", .integer),
            LedgerColumn("lease_until", .integer),
            LedgerColumn("last_error", .text, nullable: true),
            LedgerColumn("delivered_date", .integer, nullable: true),
            LedgerColumn("attempts_since", .integer),
        ],
        constraints: ["UNIQUE (customer_id, sequence)"],
        indexes: [
            outgoingEventDue,
            LedgerIndex("outgoing_event_by_state", on: "state, created_date"),
        ])

    /// The outbox's pending events in the order delivery takes them, by when each is due and
    /// then when it was written: a delivery reads from the first and stops once it has taken
    /// its batch, however many events wait behind them.
    public static let outgoingEventDue = LedgerIndex(
        "outgoing_event_due", on: "next_attempt_date, created_date", where: "state = 'pending'")

    /// Beside the outbox, each customer's last event number and the state last reported
    /// (``ReportedCustomerState`` as JSON), with when the clock next changes it.
    public static let outgoingEventState = LedgerTable(
        "outgoing_event_state",
        [
            LedgerColumn("customer_id", .text, primaryKey: true, references: "customer (id)"),
            LedgerColumn("sequence", .integer),
            LedgerColumn("reported", .text, nullable: true),
            LedgerColumn("review_date", .integer, nullable: true),
        ],
        indexes: [LedgerIndex("outgoing_event_state_review", on: "review_date", where: "review_date IS NOT NULL")])

    /// The fleet's policy releases, which only a ledger on PostgreSQL keeps, apart from ``tables``.
    public static let policyRelease = LedgerTable("policy_release", [
            LedgerColumn("release_number", .identity),
            LedgerColumn("version", .text),
            LedgerColumn("script", .text),
            LedgerColumn("catalog_name", .text, nullable: true),
            LedgerColumn("catalog", .text, nullable: true),
            LedgerColumn("action", .text, check: "action IN ('publish', 'rollback')"),
            LedgerColumn("released_date", .integer),
        ],
        constraints: ["CHECK ((catalog_name IS NULL) = (catalog IS NULL))"])

    /// The tables the ledger's first migration creates.
    public static let firstTables = [
        customer, storeTransaction, transactionVersion, transactionGrant, grantReversal, balance, renewalInfo,
        processedNotification,
    ]

    /// Every table of the ledger.
    public static let tables = firstTables + [pendingNotification, merchandisingEvent, notificationConflict, reconciliationMark,
                                         consumptionRequest, renewalExtension, experimentExposure, experimentPhase,
                                         outgoingEvent, outgoingEventState]
}
