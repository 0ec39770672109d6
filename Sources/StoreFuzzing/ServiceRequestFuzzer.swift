import Foundation
import StoreCore
import StoreService

/// The JSON-lines service over the Backyard Birds policy and a ledger in a temporary folder,
/// trusting a signing authority made for the run, so seeds signed by it reach the ledger.
final class ServiceRequestFuzzer {
    private let signedData: SignedDataFuzzer
    private let lines: JSONLineProtocol

    init(packageRoot: URL) throws {
        signedData = try SignedDataFuzzer()
        lines = JSONLineProtocol(service: try Self.service(packageRoot: packageRoot, trusting: signedData))
    }

    /// The service the request targets answer through: the Backyard Birds policy, a new SQLite
    /// ledger in a temporary folder, and the root of `signedData`'s authority trusted.
    static func service(packageRoot: URL, trusting signedData: SignedDataFuzzer) throws -> Service {
        let folder = FileManager.default.temporaryDirectory.appending(path: "storerules-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = ServiceConfiguration(
            folder: packageRoot.appending(path: "Examples/BackyardBirds").path,
            ledger: SQLiteLedgerFile(path: folder.appending(path: "ledger.sqlite").path), rootCertificates: [signedData.rootCertificate],
            bundleId: SignedDataFuzzer.bundleId, environment: .sandbox, appAppleId: 1)
        do {
            return try Service(configuration: configuration)
        } catch {
            throw FuzzSetupError("the service cannot start: \(error.message)")
        }
    }

    /// Answers the input as one request line.
    func answer(_ input: Data) {
        _ = lines.reply(to: input)
    }

    /// One request of each operation, the ingests carrying payloads the run's authority signed.
    func requestSeeds() throws -> [Data] {
        let signed = try signedData.signedSeeds().map { String(decoding: $0, as: UTF8.self) }
        return [
            #"{"id": 1, "op": "storefront", "customer": "ada", "placement": "home"}"#,
            #"{"id": "two", "op": "ingest_transaction", "customer": "ada", "jws": "\#(signed[0])"}"#,
            #"{"id": 3, "op": "ingest_transaction", "customer": "ada", "jws": "\#(signed[1])"}"#,
            #"{"id": 4, "op": "ingest_notification", "jws": "\#(signed[3])", "customer": "ada"}"#,
            #"{"id": 5, "op": "entitlements", "customer": "ada"}"#,
        ].map { Data($0.utf8) }
    }
}

/// Why a fuzz target could not be prepared.
struct FuzzSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
