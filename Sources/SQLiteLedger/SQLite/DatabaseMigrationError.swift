/// Why ``DatabaseMigrator/migrate(_:)`` could not bring a database to the current schema.
public enum DatabaseMigrationError: Error, Sendable, CustomStringConvertible {
    /// The file's schema version is higher than the number of migrations this program knows:
    /// it was written by a newer program, and is left untouched.
    case schemaVersionTooNew(found: Int, known: Int)
    /// The migration `name`, which would bring the file to `version`, failed and was rolled back.
    case migrationFailed(name: String, version: Int, underlying: any Error)

    /// One line naming the migration or versions involved.
    public var description: String {
        switch self {
        case .schemaVersionTooNew(let found, let known):
            "the database has schema version \(found), newer than the \(known) migration(s) this program knows"
        case .migrationFailed(let name, let version, let underlying):
            "migration \(version) '\(name)' failed: \(underlying)"
        }
    }
}
