/// The ledger's SQLite schema, as an ordered list of migrations.
///
/// Dates are stored as integer milliseconds since 1970, as the App Store signs them. Tables
/// are `STRICT`, so a value of the wrong type is refused by SQLite itself. The invariants the
/// ledger keeps are written as constraints where SQL can say them:
/// - a transaction is unfinished exactly when it has an unfinished reason;
/// - a grant and a reversal belong to a stored transaction, and a grant is reversed at most once;
/// - a balance is the sum of its customer's grants minus the reversed ones (kept by ``Ledger``
///   in the same SQLite transaction that writes the grants or reversals).
enum LedgerSchema {
    /// The migrations that build the schema; append new ones at the end.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("create ledger tables") { connection in
            try connection.execute(script: """
                CREATE TABLE customer (
                    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
                    app_account_token TEXT UNIQUE,
                    created_date INTEGER NOT NULL
                ) STRICT;

                CREATE TABLE store_transaction (
                    transaction_id TEXT PRIMARY KEY NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    customer_id TEXT NOT NULL REFERENCES customer (id),
                    product_id TEXT NOT NULL,
                    product_type TEXT NOT NULL,
                    subscription_group_id TEXT,
                    purchase_date INTEGER NOT NULL,
                    original_purchase_date INTEGER,
                    expires_date INTEGER,
                    quantity INTEGER NOT NULL CHECK (quantity >= 1),
                    revocation_date INTEGER,
                    revocation_reason INTEGER,
                    is_upgraded INTEGER NOT NULL CHECK (is_upgraded IN (0, 1)),
                    ownership_type TEXT,
                    offer_type INTEGER,
                    offer_id TEXT,
                    app_account_token TEXT,
                    environment TEXT NOT NULL,
                    signed_date INTEGER NOT NULL,
                    jws TEXT NOT NULL,
                    grant_state TEXT NOT NULL CHECK (grant_state IN ('unfinished', 'granted', 'revokedBeforeGrant')),
                    unfinished_reason TEXT CHECK (unfinished_reason IN ('awaitingGrant', 'decisionFailed', 'invalidGrant')),
                    unfinished_detail TEXT,
                    grant_attempts INTEGER NOT NULL DEFAULT 0,
                    stored_date INTEGER NOT NULL,
                    finished_date INTEGER,
                    CHECK ((grant_state = 'unfinished') = (unfinished_reason IS NOT NULL))
                ) STRICT;
                CREATE INDEX store_transaction_by_customer ON store_transaction (customer_id, product_id, purchase_date);
                CREATE INDEX store_transaction_by_original ON store_transaction (original_transaction_id);
                CREATE INDEX store_transaction_unfinished ON store_transaction (grant_state) WHERE grant_state = 'unfinished';

                CREATE TABLE transaction_version (
                    transaction_id TEXT NOT NULL REFERENCES store_transaction (transaction_id),
                    jws TEXT NOT NULL,
                    signed_date INTEGER NOT NULL,
                    revocation_date INTEGER,
                    received_date INTEGER NOT NULL,
                    PRIMARY KEY (transaction_id, jws)
                ) STRICT;

                CREATE TABLE transaction_grant (
                    transaction_id TEXT NOT NULL REFERENCES store_transaction (transaction_id),
                    position INTEGER NOT NULL CHECK (position >= 0),
                    item TEXT NOT NULL CHECK (length(item) > 0),
                    amount INTEGER NOT NULL CHECK (amount > 0),
                    granted_date INTEGER NOT NULL,
                    PRIMARY KEY (transaction_id, position)
                ) STRICT;

                CREATE TABLE grant_reversal (
                    transaction_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    reversed_date INTEGER NOT NULL,
                    PRIMARY KEY (transaction_id, position),
                    FOREIGN KEY (transaction_id, position) REFERENCES transaction_grant (transaction_id, position)
                ) STRICT;

                CREATE TABLE balance (
                    customer_id TEXT NOT NULL REFERENCES customer (id),
                    item TEXT NOT NULL,
                    amount INTEGER NOT NULL,
                    PRIMARY KEY (customer_id, item)
                ) STRICT;

                CREATE TABLE renewal_info (
                    original_transaction_id TEXT PRIMARY KEY NOT NULL,
                    product_id TEXT,
                    auto_renew_product_id TEXT,
                    auto_renew_status INTEGER,
                    expiration_intent INTEGER,
                    is_in_billing_retry_period INTEGER CHECK (is_in_billing_retry_period IN (0, 1)),
                    price_increase_status INTEGER,
                    grace_period_expires_date INTEGER,
                    offer_type INTEGER,
                    offer_id TEXT,
                    environment TEXT,
                    recent_subscription_start_date INTEGER,
                    renewal_date INTEGER,
                    app_account_token TEXT,
                    signed_date INTEGER NOT NULL,
                    jws TEXT NOT NULL,
                    stored_date INTEGER NOT NULL
                ) STRICT;

                CREATE TABLE processed_notification (
                    notification_uuid TEXT PRIMARY KEY NOT NULL,
                    notification_type TEXT,
                    subtype TEXT,
                    signed_date INTEGER,
                    processed_date INTEGER NOT NULL
                ) STRICT;
                """)
        }
        // Files of earlier versions hold the local store's tables here; the store now keeps them
        // in a database of its own. The step stays, creating nothing, so those files keep their
        // schema version and the next migration keeps its number.
        migrator.registerMigration("create local store tables") { _ in }
        migrator.registerMigration("create pending notification table") { connection in
            try connection.execute(script: """
                CREATE TABLE pending_notification (
                    notification_uuid TEXT PRIMARY KEY NOT NULL,
                    notification_type TEXT,
                    subtype TEXT,
                    signed_date INTEGER,
                    transaction_jws TEXT NOT NULL,
                    transaction_id TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    app_account_token TEXT,
                    received_date INTEGER NOT NULL
                ) STRICT;
                CREATE INDEX pending_notification_by_original ON pending_notification (original_transaction_id);
                CREATE INDEX pending_notification_by_token ON pending_notification (app_account_token);
                """)
        }
        // A version was keyed by its whole JWS, which SQLite then kept twice more in the key's
        // index; it is keyed by the JWS's SHA-256 now, as on PostgreSQL.
        migrator.registerMigration("key transaction versions by their JWS digest") { connection in
            try connection.execute(script: """
                CREATE TABLE transaction_version_by_digest (
                    transaction_id TEXT NOT NULL REFERENCES store_transaction (transaction_id),
                    jws_digest TEXT NOT NULL,
                    jws TEXT NOT NULL,
                    signed_date INTEGER NOT NULL,
                    revocation_date INTEGER,
                    received_date INTEGER NOT NULL,
                    PRIMARY KEY (transaction_id, jws_digest)
                ) STRICT;
                """)
            for row in try connection.fetchAll("SELECT rowid, jws FROM transaction_version ORDER BY rowid") {
                let rowID: Int64 = try row.decode(column: "rowid")
                let jws: String = try row.decode(column: "jws")
                try connection.execute(
                    """
                    INSERT INTO transaction_version_by_digest
                        (transaction_id, jws_digest, jws, signed_date, revocation_date, received_date)
                    SELECT transaction_id, ?, jws, signed_date, revocation_date, received_date
                    FROM transaction_version WHERE rowid = ?
                    """,
                    [SHA256Digest.hex(of: jws), rowID])
            }
            try connection.execute(script: """
                DROP TABLE transaction_version;
                ALTER TABLE transaction_version_by_digest RENAME TO transaction_version;
                """)
        }
        migrator.registerMigration("create merchandising event table") { connection in
            try connection.execute(script: """
                CREATE TABLE merchandising_event (
                    customer_id TEXT NOT NULL REFERENCES customer (id),
                    name TEXT NOT NULL,
                    placement TEXT,
                    occurred_date INTEGER NOT NULL
                ) STRICT;
                CREATE INDEX merchandising_event_by_customer ON merchandising_event (customer_id, name, occurred_date);
                """)
        }
        // Tokens were stored as given; they are compared in canonical form now. A customer whose
        // token differs from another's only in case keeps it as it was, for `ledger check` to
        // report: merging two customers is an operator's decision.
        migrator.registerMigration("canonicalise app account tokens") { connection in
            for table in AppAccountTokenMigration.tables {
                let tokens = try connection.fetchAll("SELECT DISTINCT app_account_token FROM \(table) WHERE app_account_token IS NOT NULL")
                    .map { row -> String in try row.decode(column: "app_account_token") }
                for change in AppAccountTokenMigration.changes(of: tokens, unique: table == "customer") {
                    try connection.execute("UPDATE \(table) SET app_account_token = ? WHERE app_account_token = ?",
                                           [change.canonical, change.stored])
                }
            }
        }
        migrator.registerMigration("create notification conflict table") { connection in
            try connection.execute(script: """
                CREATE TABLE notification_conflict (
                    notification_uuid TEXT PRIMARY KEY NOT NULL,
                    notification_type TEXT,
                    subtype TEXT,
                    transaction_id TEXT NOT NULL,
                    field TEXT NOT NULL,
                    stored TEXT NOT NULL,
                    received TEXT NOT NULL,
                    transaction_jws TEXT NOT NULL,
                    received_date INTEGER NOT NULL
                ) STRICT;
                """)
        }
        return migrator
    }()
}
