/// Why ``LedgerMigrator/migrate(_:)`` could not bring a database to the current schema.
public enum LedgerMigrationError: Error, Sendable, CustomStringConvertible {
    /// The database records more migrations than this program knows: it was migrated by a newer
    /// program, and is left untouched.
    case schemaTooNew(applied: Int, known: Int)
    /// The migration recorded at `position` is not the one this program registered there: the
    /// database has another history, and is left untouched.
    case historyMismatch(position: Int, recorded: String, registered: String)
    /// The migration `name`, at `position`, failed and was rolled back.
    case migrationFailed(name: String, position: Int, underlying: any Error)

    /// One line naming the migration or counts involved.
    public var description: String {
        switch self {
        case .schemaTooNew(let applied, let known):
            "the database records \(applied) migration(s), more than the \(known) this program knows"
        case .historyMismatch(let position, let recorded, let registered):
            "migration \(position) is recorded as '\(recorded)', but this program registers '\(registered)' there"
        case .migrationFailed(let name, let position, let underlying):
            "migration \(position) '\(name)' failed: \(underlying)"
        }
    }
}
