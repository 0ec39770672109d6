import PostgresLedger
import StoreCore

extension LedgerLocation {
    /// The ledger here, opened (and migrated) for a command: a one-line failure naming the
    /// location, without its password, when it cannot be.
    func openForCommand() throws(CommandFailure) -> Ledger {
        do {
            return try open()
        } catch {
            throw CommandFailure("cannot open the ledger \(displayName): \(error)")
        }
    }
}
