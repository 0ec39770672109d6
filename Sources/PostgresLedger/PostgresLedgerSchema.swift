import StoreCore

/// The ledger's PostgreSQL schema, as an ordered list of migrations: the same tables, columns
/// and constraints as the SQLite ledger's, in PostgreSQL's types (`bigint` for integers and
/// epoch milliseconds, `boolean` for flags). A transaction's versions are keyed by the SHA-256
/// of their JWS (`jws_digest`), since a signed JWS with its certificate chain is longer than a
/// btree index entry may be.
enum PostgresLedgerSchema {
    /// The migrations that build the schema; append new ones at the end.
    static let migrator: PostgresMigrator = {
        var migrator = PostgresMigrator()
        migrator.registerMigration("create ledger tables") { connection in
            for statement in createTables {
                try connection.execute(statement)
            }
        }
        migrator.registerMigration("create pending notification table") { connection in
            for statement in createPendingNotificationTable {
                try connection.execute(statement)
            }
        }
        migrator.registerMigration("create merchandising event table") { connection in
            for statement in createMerchandisingEventTable {
                try connection.execute(statement)
            }
        }
        migrator.registerMigration("create policy release table") { connection in
            try connection.execute(createPolicyReleaseTable)
        }
        // As on SQLite: tokens compared in canonical form; a case-only duplicate among
        // customers stays as it was, for `ledger check` to report.
        migrator.registerMigration("canonicalise app account tokens") { connection in
            for table in AppAccountTokenMigration.tables {
                let tokens = try connection.execute("SELECT DISTINCT app_account_token FROM \(table) WHERE app_account_token IS NOT NULL")
                    .map { row -> String in try row.decode(column: "app_account_token") }
                for change in AppAccountTokenMigration.changes(of: tokens, unique: table == "customer") {
                    try connection.execute("UPDATE \(table) SET app_account_token = $1 WHERE app_account_token = $2",
                                           [.text(change.canonical), .text(change.stored)])
                }
            }
        }
        migrator.registerMigration("create notification conflict table") { connection in
            try connection.execute("""
                CREATE TABLE notification_conflict (
                    notification_uuid text PRIMARY KEY,
                    notification_type text,
                    subtype text,
                    transaction_id text NOT NULL,
                    field text NOT NULL,
                    stored text NOT NULL,
                    received text NOT NULL,
                    transaction_jws text NOT NULL,
                    received_date bigint NOT NULL
                )
                """)
        }
        return migrator
    }()

    private static let createTables = [
        """
        CREATE TABLE customer (
            id text PRIMARY KEY CHECK (length(id) > 0),
            app_account_token text UNIQUE,
            created_date bigint NOT NULL
        )
        """,
        """
        CREATE TABLE store_transaction (
            transaction_id text PRIMARY KEY,
            original_transaction_id text NOT NULL,
            customer_id text NOT NULL REFERENCES customer (id),
            product_id text NOT NULL,
            product_type text NOT NULL,
            subscription_group_id text,
            purchase_date bigint NOT NULL,
            original_purchase_date bigint,
            expires_date bigint,
            quantity bigint NOT NULL CHECK (quantity >= 1),
            revocation_date bigint,
            revocation_reason bigint,
            is_upgraded boolean NOT NULL,
            ownership_type text,
            offer_type bigint,
            offer_id text,
            app_account_token text,
            environment text NOT NULL,
            signed_date bigint NOT NULL,
            jws text NOT NULL,
            grant_state text NOT NULL CHECK (grant_state IN ('unfinished', 'granted', 'revokedBeforeGrant')),
            unfinished_reason text CHECK (unfinished_reason IN ('awaitingGrant', 'decisionFailed', 'invalidGrant')),
            unfinished_detail text,
            grant_attempts bigint NOT NULL DEFAULT 0,
            stored_date bigint NOT NULL,
            finished_date bigint,
            CHECK ((grant_state = 'unfinished') = (unfinished_reason IS NOT NULL))
        )
        """,
        "CREATE INDEX store_transaction_by_customer ON store_transaction (customer_id, product_id, purchase_date)",
        "CREATE INDEX store_transaction_by_original ON store_transaction (original_transaction_id)",
        "CREATE INDEX store_transaction_unfinished ON store_transaction (grant_state) WHERE grant_state = 'unfinished'",
        """
        CREATE TABLE transaction_version (
            transaction_id text NOT NULL REFERENCES store_transaction (transaction_id),
            jws_digest text NOT NULL,
            jws text NOT NULL,
            signed_date bigint NOT NULL,
            revocation_date bigint,
            received_date bigint NOT NULL,
            PRIMARY KEY (transaction_id, jws_digest)
        )
        """,
        """
        CREATE TABLE transaction_grant (
            transaction_id text NOT NULL REFERENCES store_transaction (transaction_id),
            position bigint NOT NULL CHECK (position >= 0),
            item text NOT NULL CHECK (length(item) > 0),
            amount bigint NOT NULL CHECK (amount > 0),
            granted_date bigint NOT NULL,
            PRIMARY KEY (transaction_id, position)
        )
        """,
        """
        CREATE TABLE grant_reversal (
            transaction_id text NOT NULL,
            position bigint NOT NULL,
            reversed_date bigint NOT NULL,
            PRIMARY KEY (transaction_id, position),
            FOREIGN KEY (transaction_id, position) REFERENCES transaction_grant (transaction_id, position)
        )
        """,
        """
        CREATE TABLE balance (
            customer_id text NOT NULL REFERENCES customer (id),
            item text NOT NULL,
            amount bigint NOT NULL,
            PRIMARY KEY (customer_id, item)
        )
        """,
        """
        CREATE TABLE renewal_info (
            original_transaction_id text PRIMARY KEY,
            product_id text,
            auto_renew_product_id text,
            auto_renew_status bigint,
            expiration_intent bigint,
            is_in_billing_retry_period boolean,
            price_increase_status bigint,
            grace_period_expires_date bigint,
            offer_type bigint,
            offer_id text,
            environment text,
            recent_subscription_start_date bigint,
            renewal_date bigint,
            app_account_token text,
            signed_date bigint NOT NULL,
            jws text NOT NULL,
            stored_date bigint NOT NULL
        )
        """,
        """
        CREATE TABLE processed_notification (
            notification_uuid text PRIMARY KEY,
            notification_type text,
            subtype text,
            signed_date bigint,
            processed_date bigint NOT NULL
        )
        """,
    ]

    private static let createPendingNotificationTable = [
        """
        CREATE TABLE pending_notification (
            notification_uuid text PRIMARY KEY,
            notification_type text,
            subtype text,
            signed_date bigint,
            transaction_jws text NOT NULL,
            transaction_id text NOT NULL,
            original_transaction_id text NOT NULL,
            app_account_token text,
            received_date bigint NOT NULL
        )
        """,
        "CREATE INDEX pending_notification_by_original ON pending_notification (original_transaction_id)",
        "CREATE INDEX pending_notification_by_token ON pending_notification (app_account_token)",
    ]

    private static let createMerchandisingEventTable = [
        """
        CREATE TABLE merchandising_event (
            event_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            customer_id text NOT NULL REFERENCES customer (id),
            name text NOT NULL,
            placement text,
            occurred_date bigint NOT NULL
        )
        """,
        "CREATE INDEX merchandising_event_by_customer ON merchandising_event (customer_id, name, occurred_date)",
    ]

    private static let createPolicyReleaseTable = """
        CREATE TABLE policy_release (
            release_number bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            version text NOT NULL,
            script text NOT NULL,
            catalog_name text,
            catalog text,
            action text NOT NULL CHECK (action IN ('publish', 'rollback')),
            released_date bigint NOT NULL,
            CHECK ((catalog_name IS NULL) = (catalog IS NULL))
        )
        """
}
