import CommandLineOptions
import Foundation
import PostgresLedger
import ServiceCommandLine

/// Where `storerules run` keeps its ledger, the local store's state and the signing
/// certificates: where the command line says (a ledger file or a PostgreSQL URL, with the
/// store's files placed as `storerules store` places them), or in a temporary folder that holds
/// the signing private keys and is removed when the run ends.
struct RunWorkspace {
    /// The ledger.
    let ledger: LedgerLocation
    /// The local store's own state.
    let storeStatePath: String
    /// The folder of the signing certificates and their private keys.
    let certificates: URL
    /// The temporary folder made for this run, if the command line named no ledger.
    private let temporaryFolder: URL?

    /// A workspace for the ledger `ledger` (a path or a URL) with the store state `storeState`,
    /// or a temporary one when no ledger is given.
    ///
    /// - Throws: ``UsageError`` for a PostgreSQL ledger without a store state, or a store state
    ///   without a ledger.
    init(ledger given: String?, storeState: String?) throws {
        if let given {
            ledger = try LedgerLocation.option(given)
            let files = try StoreFiles(ledger: ledger, storeState: storeState)
            if case .sqlite(let path) = ledger, FileManager.default.fileExists(atPath: path) {
                throw CommandFailure("\(path) exists; a journey starts from a fresh ledger and store")
            }
            storeStatePath = files.statePath
            certificates = URL(fileURLWithPath: files.certificatesPath)
            temporaryFolder = nil
        } else {
            guard storeState == nil else { throw UsageError("--store-state needs --ledger") }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-run-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            ledger = .sqlite(path: folder.appendingPathComponent("ledger.sqlite").path)
            storeStatePath = folder.appendingPathComponent("store.sqlite").path
            certificates = folder.appendingPathComponent("certificates")
            temporaryFolder = folder
        }
    }

    /// Removes the temporary folder, with the ledger, the store state and private keys in it.
    func removeTemporaryFolder() {
        if let temporaryFolder { try? FileManager.default.removeItem(at: temporaryFolder) }
    }
}
