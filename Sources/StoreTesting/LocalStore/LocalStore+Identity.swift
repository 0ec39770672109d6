import StoreCore
import SQLiteLedger

extension LocalStore {
    /// What a store was first opened as: the bundle identifier and environment every payload
    /// it signed names. The store's state remembers it, so a later store opened on the same
    /// state signs as the same app in the same environment.
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

    /// The identity the store's `state` remembers, or `nil` when no store has opened it yet.
    ///
    /// - Throws: ``DatabaseMigrationError`` when the schema cannot be brought up to date;
    ///   ``SQLiteError``.
    public static func rememberedIdentity(in state: Database) throws -> Identity? {
        try LocalStoreSchema.migrator.migrate(state)
        return try state.read { try identity($0) }
    }

    /// Remembers `configuration`'s identity in a state that has none; refuses a different one.
    ///
    /// - Throws: ``LocalStoreError/identityMismatch(remembered:given:)``.
    static func rememberIdentity(of configuration: Configuration, in connection: DatabaseConnection) throws {
        let given = Identity(bundleID: configuration.bundleID, environment: configuration.environment)
        if let remembered = try identity(connection) {
            guard remembered == given else { throw LocalStoreError.identityMismatch(remembered: remembered, given: given) }
            return
        }
        try connection.execute("INSERT INTO local_store_identity (id, bundle_id, environment) VALUES (1, ?, ?)",
                               [given.bundleID, given.environment.rawValue])
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
