extension LocalStore {
    /// What a store's ledger was first opened as: the bundle identifier and environment every
    /// payload it signed names. The ledger's file remembers it, so a later store opened on the
    /// same file signs as the same app in the same environment.
    public struct Identity: Sendable, Hashable {
        /// The app's bundle identifier.
        public var bundleID: String
        /// The environment the store signs for.
        public var environment: AppStoreEnvironment

        /// An identity.
        public init(bundleID: String, environment: AppStoreEnvironment) {
            self.bundleID = bundleID
            self.environment = environment
        }
    }

    /// The identity `ledger`'s file remembers, or `nil` when no store has opened it yet.
    public static func rememberedIdentity(in ledger: Ledger) throws -> Identity? {
        try ledger.database.write { connection in
            try createIdentityTable(connection)
            return try identity(connection)
        }
    }

    /// Remembers `configuration`'s identity in a file that has none; refuses a different one.
    ///
    /// - Throws: ``LocalStoreError/identityMismatch(remembered:given:)``.
    static func rememberIdentity(of configuration: Configuration, in connection: DatabaseConnection) throws {
        try createIdentityTable(connection)
        let given = Identity(bundleID: configuration.bundleID, environment: configuration.environment)
        if let remembered = try identity(connection) {
            guard remembered == given else { throw LocalStoreError.identityMismatch(remembered: remembered, given: given) }
            return
        }
        try connection.execute("INSERT INTO local_store_identity (id, bundle_id, environment) VALUES (1, ?, ?)",
                               [given.bundleID, given.environment.rawValue])
    }

    /// Creates the one-row table of the identity, in files made before it existed too.
    private static func createIdentityTable(_ connection: DatabaseConnection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS local_store_identity (
                id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                bundle_id TEXT NOT NULL,
                environment TEXT NOT NULL
            ) STRICT
            """)
    }

    /// The identity row, if there is one.
    private static func identity(_ connection: DatabaseConnection) throws -> Identity? {
        guard let row = try connection.fetchOne("SELECT bundle_id, environment FROM local_store_identity WHERE id = 1") else {
            return nil
        }
        return Identity(bundleID: try row.decode(column: "bundle_id"),
                        environment: AppStoreEnvironment(rawValue: try row.decode(String.self, column: "environment")))
    }
}
