import Foundation
import PostgresLedger
import ServiceCommandLine
import SQLiteLedger
import StoreCore

extension LedgerLocation {
    /// Takes the ledger back to before the migration `name`, as a ledger of an earlier version
    /// was: runs `undoing` (the statements that remove what that migration and the ones after
    /// it made, which run again when the ledger is next opened), then forgets that the
    /// migration and the ones after it were applied.
    func takeBack(toBefore name: String, undoing statements: [String]) throws {
        switch self {
        case .sqlite(let path):
            let steps = LedgerMigrations.all.filter { $0.dialects.contains(.sqlite) }
            guard let position = steps.firstIndex(where: { $0.name == name }) else { throw UnknownMigration(name: name) }
            try Database(path: path).write { connection in
                for statement in statements {
                    try connection.execute(statement)
                }
                try connection.execute("PRAGMA user_version = \(position)")
            }
        case .postgres(let url):
            let steps = LedgerMigrations.all.filter { $0.dialects.contains(.postgres) }
            guard let position = steps.firstIndex(where: { $0.name == name }) else { throw UnknownMigration(name: name) }
            let connection = try PostgresConnection(url: url)
            for statement in statements {
                try connection.execute(statement)
            }
            try connection.execute("DELETE FROM storerules_migrations WHERE position > $1", [.integer(Int64(position))])
        }
    }
}

/// No migration of the ledger's database has this name.
struct UnknownMigration: Error, CustomStringConvertible {
    /// The name asked for.
    let name: String
    var description: String { "no migration of this database is named \(name)" }
}
