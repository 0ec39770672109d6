import Foundation

/// Where `storerules run` keeps its ledger, the local store's state and the signing
/// certificates: beside the ledger the command line names, or in a temporary folder that holds
/// the signing private keys and is removed when the run ends.
struct RunWorkspace {
    /// The ledger file.
    let ledgerPath: String
    /// The local store's own state.
    let storeStatePath: String
    /// The folder of the signing certificates and their private keys.
    let certificates: URL
    /// The temporary folder made for this run, if the command line named no ledger.
    private let temporaryFolder: URL?

    /// A workspace for the ledger at `ledgerPath`, or for a temporary one when it is nil.
    init(ledgerPath: String?) throws {
        if let ledgerPath {
            self.ledgerPath = ledgerPath
            storeStatePath = StoreCommand.defaultStatePath(beside: ledgerPath)
            certificates = URL(fileURLWithPath: ledgerPath + ".certificates")
            temporaryFolder = nil
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-run-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.ledgerPath = folder.appendingPathComponent("ledger.sqlite").path
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
