import Foundation
import StoreService
import StoreTesting

/// A router over the Backyard Birds example with a new SQLite ledger in a temporary folder,
/// trusting a signing authority made for the test, with one `app` and one `admin` key.
struct RouterTestService {
    static let appKey = "router-test-app-key-0123"
    static let adminKey = "router-test-admin-key-0123"

    let router: HTTPRouter
    let authority: SigningAuthority
    private let folder: URL

    init(log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folder = FileManager.default.temporaryDirectory.appending(path: "storerules-router-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        authority = try SigningAuthority.generate(name: "StoreRules Router Tests")
        let service = try Service(configuration: ServiceConfiguration(
            folder: packageRoot.appending(path: "Examples/BackyardBirds").path,
            ledger: SQLiteLedgerFile(path: folder.appending(path: "ledger.sqlite").path), rootCertificates: [authority.rootCertificate],
            bundleId: "com.example.backyardbirds", environment: .sandbox))
        let keys = try APIKeyring(text: "app \(Self.appKey)\nadmin \(Self.adminKey)\n")
        router = HTTPRouter(service: service, access: AccessControl(keyring: keys), log: log)
    }

    /// The router's answer to a request, as `key` (none when nil).
    func respond(_ method: String, _ path: String, query: [String: String] = [:], key: String? = appKey, body: String = "") -> HTTPResponse {
        var headers: [String: String] = [:]
        if let key { headers["Authorization"] = "Bearer \(key)" }
        return router.respond(to: HTTPRequest(method: method, path: path, query: query, headers: headers, body: Data(body.utf8)))
    }

    /// Removes the temporary folder.
    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }
}

extension HTTPResponse {
    /// The body's JSON object.
    var object: [String: Any] {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:]
    }

    /// The `kind` of an error body.
    var errorKind: String? {
        (object["error"] as? [String: Any])?["kind"] as? String
    }
}
