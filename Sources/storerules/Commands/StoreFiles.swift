import CommandLineOptions
import Foundation
import PostgresLedger
import ServiceCommandLine

/// Where the local store keeps what is its own beside a ledger: its state (a SQLite file) and
/// its signing certificates (a folder).
///
/// Beside a SQLite ledger `FILE`, the state is `FILE.store.sqlite` unless `--store-state`
/// says otherwise, and the certificates are in `FILE.certificates/`. A PostgreSQL ledger has
/// no file to stand beside: `--store-state STATE` is required, and the certificates are in
/// `STATE.certificates/`.
struct StoreFiles {
    /// The store state's SQLite file.
    let statePath: String
    /// The folder of the signing authority's certificates and key.
    let certificatesPath: String

    /// The files for `ledger`, with the store state `given` on the command line.
    ///
    /// - Throws: ``UsageError`` for a PostgreSQL ledger without a store state, or a store
    ///   state that is the ledger file itself.
    init(ledger: LedgerLocation, storeState given: String?) throws(UsageError) {
        switch ledger {
        case .sqlite(let path):
            statePath = given ?? StoreCommand.defaultStatePath(beside: path)
            guard URL(fileURLWithPath: statePath).standardizedFileURL != URL(fileURLWithPath: path).standardizedFileURL else {
                throw UsageError("--store-state must name another file than the ledger")
            }
            certificatesPath = path + ".certificates"
        case .postgres:
            guard let given else {
                throw UsageError("a PostgreSQL ledger needs --store-state FILE: the local store keeps its own state "
                                 + "in a SQLite file, and its certificates in FILE.certificates/")
            }
            statePath = given
            certificatesPath = given + ".certificates"
        }
    }

    /// Whether the store has left anything here: its state or its certificates.
    var exist: Bool {
        FileManager.default.fileExists(atPath: statePath) || FileManager.default.fileExists(atPath: certificatesPath)
    }
}
