import StoreCore
import SQLiteLedger

/// The local test store's SQLite schema, in a database of its own, apart from the ledger's.
///
/// Every table is named `local_store_*`. They hold what the store — standing in for the App
/// Store — knows and the ledger does not: its clock, its settings, every transaction it issued
/// with its latest signature, each customer's subscription in each group, Family Sharing
/// groups, Ask to Buy requests, the deliveries owed to the app, the outbox of App Store Server
/// Notifications and the identity it signs as. Dates are integer milliseconds since 1970, as in
/// the ledger.
///
/// Ledger files of earlier versions hold these same tables, created by the ledger's second
/// migration; ``LocalStore/moveState(fromLedgerAt:into:)`` moves them out.
enum LocalStoreSchema {
    /// The migrations that build the schema; append new ones at the end.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("create local store tables", apply: createTables)
        migrator.registerMigration("create local store identity", apply: createIdentityTable)
        migrator.registerMigration("create server API tables", apply: createServerAPITables)
        return migrator
    }()

    /// Every table, in an order in which each one's rows can be copied after those they refer to.
    static let tableNames = ledgerHeldTableNames + [
        "local_store_api_key", "local_store_consumption", "local_store_renewal_extension", "local_store_mass_extension",
        "local_store_test_notification", "local_store_text_setting", "local_store_send_attempt", "local_store_refund_request",
    ]

    /// The tables ledger files of earlier versions hold, which a new store state takes over.
    static let ledgerHeldTableNames = [
        "local_store_state", "local_store_setting", "local_store_family_member", "local_store_transaction",
        "local_store_subscription", "local_store_ask_to_buy", "local_store_delivery", "local_store_notification",
        "local_store_identity",
    ]

    /// Creates the tables of the store's first migration, which earlier ledger files hold too.
    static func createTables(_ connection: DatabaseConnection) throws {
        try connection.execute(script: """
            CREATE TABLE local_store_state (
                id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                clock_offset_ms INTEGER NOT NULL,
                manual_now_ms INTEGER,
                last_signed_ms INTEGER NOT NULL,
                next_transaction_number INTEGER NOT NULL,
                next_web_order_number INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE local_store_setting (
                name TEXT PRIMARY KEY NOT NULL,
                value INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE local_store_family_member (
                customer_id TEXT PRIMARY KEY NOT NULL CHECK (length(customer_id) > 0),
                family_id TEXT NOT NULL CHECK (length(family_id) > 0),
                joined_date INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX local_store_family_member_by_family ON local_store_family_member (family_id);

            CREATE TABLE local_store_transaction (
                transaction_id TEXT PRIMARY KEY NOT NULL,
                original_transaction_id TEXT NOT NULL,
                customer_id TEXT NOT NULL CHECK (length(customer_id) > 0),
                product_id TEXT NOT NULL,
                product_type TEXT NOT NULL,
                group_id TEXT,
                purchase_date INTEGER NOT NULL,
                expires_date INTEGER,
                revocation_date INTEGER,
                is_upgraded INTEGER NOT NULL CHECK (is_upgraded IN (0, 1)),
                offer_type INTEGER,
                shared_from TEXT REFERENCES local_store_transaction (transaction_id),
                jws TEXT NOT NULL
            ) STRICT;
            CREATE INDEX local_store_transaction_by_customer ON local_store_transaction (customer_id, product_id);
            CREATE INDEX local_store_transaction_by_original ON local_store_transaction (original_transaction_id);
            CREATE INDEX local_store_transaction_by_source ON local_store_transaction (shared_from);

            CREATE TABLE local_store_subscription (
                original_transaction_id TEXT PRIMARY KEY NOT NULL,
                customer_id TEXT NOT NULL CHECK (length(customer_id) > 0),
                group_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                auto_renew_product_id TEXT NOT NULL,
                auto_renew INTEGER NOT NULL CHECK (auto_renew IN (0, 1)),
                phase TEXT NOT NULL
                    CHECK (phase IN ('subscribed', 'inGracePeriod', 'inBillingRetryPeriod', 'expired', 'revoked')),
                latest_transaction_id TEXT NOT NULL,
                original_purchase_date INTEGER NOT NULL,
                recent_start_date INTEGER NOT NULL,
                expires_date INTEGER NOT NULL,
                grace_period_expires_date INTEGER,
                billing_retry_expires_date INTEGER,
                expiration_intent INTEGER,
                offer_type INTEGER,
                offer_id TEXT,
                offer_discount_type TEXT,
                offer_period TEXT,
                offer_price_milliunits INTEGER,
                offer_periods_left INTEGER NOT NULL DEFAULT 0 CHECK (offer_periods_left >= 0),
                app_account_token TEXT,
                shared_from TEXT REFERENCES local_store_subscription (original_transaction_id),
                renewal_info_jws TEXT,
                CHECK ((phase = 'inGracePeriod') = (grace_period_expires_date IS NOT NULL)),
                CHECK ((phase IN ('inGracePeriod', 'inBillingRetryPeriod')) = (billing_retry_expires_date IS NOT NULL))
            ) STRICT;
            CREATE UNIQUE INDEX local_store_subscription_purchased
                ON local_store_subscription (customer_id, group_id) WHERE shared_from IS NULL;
            CREATE UNIQUE INDEX local_store_subscription_shared
                ON local_store_subscription (customer_id, shared_from) WHERE shared_from IS NOT NULL;

            CREATE TABLE local_store_ask_to_buy (
                request_id TEXT PRIMARY KEY NOT NULL,
                customer_id TEXT NOT NULL CHECK (length(customer_id) > 0),
                product_id TEXT NOT NULL,
                options TEXT NOT NULL,
                requested_date INTEGER NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'declined')),
                decided_date INTEGER,
                transaction_id TEXT,
                CHECK ((state = 'pending') = (decided_date IS NULL))
            ) STRICT;

            CREATE TABLE local_store_delivery (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                customer_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('transaction', 'renewalInfo', 'notification')),
                jws TEXT NOT NULL,
                delivered_date INTEGER
            ) STRICT;
            CREATE INDEX local_store_delivery_pending ON local_store_delivery (sequence) WHERE delivered_date IS NULL;

            CREATE TABLE local_store_notification (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                notification_uuid TEXT NOT NULL UNIQUE,
                customer_id TEXT NOT NULL,
                notification_type TEXT NOT NULL,
                subtype TEXT,
                transaction_id TEXT,
                original_transaction_id TEXT,
                signed_date INTEGER NOT NULL,
                signed_payload TEXT NOT NULL
            ) STRICT;
            CREATE INDEX local_store_notification_by_customer ON local_store_notification (customer_id, sequence);
            """)
    }

    /// Creates the one-row table of the identity the store signs as; earlier ledger files hold
    /// it too, when a store opened them.
    static func createIdentityTable(_ connection: DatabaseConnection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS local_store_identity (
                id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                bundle_id TEXT NOT NULL,
                environment TEXT NOT NULL
            ) STRICT
            """)
    }

    /// Creates the tables of what the App Store Server API the store serves keeps: the keys it
    /// accepts, the consumption information it received, the renewal extensions it made (one per
    /// request identifier and subscription), the test notifications it sent, customers' refund
    /// requests; and of the
    /// notifications it sends to a server: the URL, each notification's next attempt, and every
    /// attempt with its result.
    static func createServerAPITables(_ connection: DatabaseConnection) throws {
        try connection.execute(script: """
            ALTER TABLE local_store_notification ADD COLUMN next_send_date INTEGER;
            ALTER TABLE local_store_notification ADD COLUMN send_attempt_count INTEGER NOT NULL DEFAULT 0;
            CREATE INDEX local_store_notification_due ON local_store_notification (next_send_date) WHERE next_send_date IS NOT NULL;

            CREATE TABLE local_store_text_setting (
                name TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            ) STRICT;

            CREATE TABLE local_store_send_attempt (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                notification_sequence INTEGER REFERENCES local_store_notification (sequence),
                test_token TEXT,
                attempt_date INTEGER NOT NULL,
                result TEXT NOT NULL,
                CHECK ((notification_sequence IS NULL) <> (test_token IS NULL))
            ) STRICT;
            CREATE INDEX local_store_send_attempt_by_notification ON local_store_send_attempt (notification_sequence);
            CREATE INDEX local_store_send_attempt_by_test ON local_store_send_attempt (test_token);

            CREATE TABLE local_store_api_key (
                key_id TEXT PRIMARY KEY NOT NULL CHECK (length(key_id) > 0),
                issuer_id TEXT NOT NULL CHECK (length(issuer_id) > 0),
                public_key_pem TEXT NOT NULL,
                created_date INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE local_store_consumption (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                transaction_id TEXT NOT NULL,
                version INTEGER NOT NULL CHECK (version IN (1, 2)),
                body TEXT NOT NULL,
                received_date INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX local_store_consumption_by_transaction ON local_store_consumption (transaction_id, sequence);

            CREATE TABLE local_store_renewal_extension (
                request_identifier TEXT NOT NULL,
                original_transaction_id TEXT NOT NULL,
                extend_by_days INTEGER NOT NULL CHECK (extend_by_days BETWEEN 1 AND 90),
                reason_code INTEGER NOT NULL CHECK (reason_code BETWEEN 0 AND 3),
                web_order_line_item_id TEXT,
                effective_date INTEGER NOT NULL,
                extended_date INTEGER NOT NULL,
                PRIMARY KEY (request_identifier, original_transaction_id)
            ) STRICT;
            CREATE INDEX local_store_renewal_extension_by_subscription
                ON local_store_renewal_extension (original_transaction_id, extended_date);

            CREATE TABLE local_store_mass_extension (
                request_identifier TEXT PRIMARY KEY NOT NULL,
                product_id TEXT NOT NULL,
                extend_by_days INTEGER NOT NULL,
                reason_code INTEGER NOT NULL,
                storefronts TEXT,
                succeeded_count INTEGER NOT NULL,
                failed_count INTEGER NOT NULL,
                complete_date INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE local_store_refund_request (
                transaction_id TEXT PRIMARY KEY NOT NULL,
                reason TEXT NOT NULL,
                requested_date INTEGER NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'declined')),
                decided_date INTEGER,
                CHECK ((state = 'pending') = (decided_date IS NULL))
            ) STRICT;

            CREATE TABLE local_store_test_notification (
                token TEXT PRIMARY KEY NOT NULL,
                signed_date INTEGER NOT NULL,
                signed_payload TEXT NOT NULL,
                next_send_date INTEGER,
                send_attempt_count INTEGER NOT NULL DEFAULT 0
            ) STRICT;
            """)
    }
}
