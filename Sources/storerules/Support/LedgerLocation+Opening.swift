import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore

extension LedgerLocation {
    /// The ledger here, opened (and migrated) for a command: a one-line failure naming the
    /// location, without a password anywhere in it, when it cannot be. A command that only
    /// reads passes `mustExist`, so a mistyped SQLite path fails instead of leaving a new,
    /// empty ledger behind.
    func openForCommand(mustExist: Bool = false) throws(CommandFailure) -> Ledger {
        if mustExist, case .sqlite(let path) = self, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure("the ledger \(path) does not exist")
        }
        do {
            return try open()
        } catch {
            throw CommandFailure("cannot open the ledger \(displayName): \(Self.maskingPasswords(in: "\(error)"))")
        }
    }
}
