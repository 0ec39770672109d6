import AppStoreServerAPI
import Foundation
import StoreService
import StoreTesting
import TestPrerequisites

/// The service's HTTP API in process, as Hummingbird's `HummingbirdTesting` serves an
/// application: each request goes through the router's whole middleware chain (request id,
/// metrics, errors, percent-decoding, routing, keys, limits) and its route, and the answer
/// comes back as the transport would send it, with no process, socket or port.
///
/// By default the service serves the Backyard Birds example with a new SQLite ledger in a
/// temporary folder, trusting a signing authority made for the test, with one `app` and one
/// `admin` key; `configure` changes the service's configuration (its policy folder, policy,
/// clock, customer attributes, …) before it starts.
struct RouterTestService {
    static let appKey = "router-test-app-key-0123"
    static let adminKey = "router-test-admin-key-0123"

    let router: HTTPRouter
    let authority: SigningAuthority
    /// The temporary folder holding the ledger; removed by ``cleanUp()``.
    let folder: URL

    init(log: @escaping @Sendable (String) -> Void = { _ in }, configure: (inout ServiceConfiguration) -> Void = { _ in },
         decisionLog: DecisionLog? = nil, offerSigner: PromotionalOfferSignatureIssuer? = nil) throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folder = try TestFolders.make("storerules-router")
        authority = try SigningAuthority.generate(name: "StoreRules Router Tests")
        var configuration = ServiceConfiguration(
            folder: packageRoot.appending(path: "Examples/BackyardBirds").path,
            ledger: SQLiteLedgerFile(path: folder.appending(path: "ledger.sqlite").path), rootCertificates: [authority.rootCertificate],
            bundleId: "com.example.backyardbirds", environment: .sandbox)
        configure(&configuration)
        let service = try Service(configuration: configuration)
        let keys = try APIKeyring(text: "app \(Self.appKey)\nadmin \(Self.adminKey)\n")
        router = HTTPRouter(service: service, access: AccessControl(keyring: keys), decisionLog: decisionLog, offerSigner: offerSigner, log: log)
    }

    /// Runs `body` with a service made as ``init(log:configure:decisionLog:offerSigner:)``
    /// makes one, and removes its folder after, whatever `body` does.
    static func test<Result>(configure: (inout ServiceConfiguration) -> Void = { _ in }, decisionLog: DecisionLog? = nil,
                             _ body: (RouterTestService) throws -> Result) throws -> Result {
        let service = try RouterTestService(configure: configure, decisionLog: decisionLog)
        defer { service.cleanUp() }
        return try body(service)
    }

    /// The router's answer to a request with `headers`, as `key` (none when nil).
    func respond(_ method: String, _ path: String, query: [String: String] = [:], headers: [String: String] = [:], key: String? = appKey,
                 body: String = "") -> HTTPResponse {
        var headers = headers
        if let key { headers["Authorization"] = "Bearer \(key)" }
        let request = HTTPRequest(method: method, path: path, query: query, headers: headers, body: Data(body.utf8))
        let response = router.respond(to: request)
        ContractExchanges.record(request, response)
        return response
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

    /// The body as text.
    var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The `kind` of an error body.
    var errorKind: String? {
        (object["error"] as? [String: Any])?["kind"] as? String
    }
}
