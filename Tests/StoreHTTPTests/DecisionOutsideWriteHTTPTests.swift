import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import StoreHTTP
import StoreService
import StoreTesting
import Synchronization
import Testing
import TestPrerequisites

/// Through the HTTP server `storerules serve` runs: a grant being decided for one customer holds
/// up no other customer's purchase or read, and holds no storage transaction open.
@Suite struct DecisionOutsideWriteHTTPTests {
    /// The PostgreSQL server of the run, when `STORERULES_TEST_POSTGRES_URL` names one.
    static let postgresServer = ProcessInfo.processInfo.environment["STORERULES_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    /// SQLite always; PostgreSQL with a server, and always under CI, where a missing one fails.
    static let backends = TestPrerequisite.runs(postgresServer != nil) ? ["sqlite", "postgres"] : ["sqlite"]

    @Test("while A's grant is decided, B's purchase and reads are answered and no ledger transaction is open; A is granted once",
          arguments: backends)
    func blockedGrantHoldsUpNoOtherRequest(backend: String) throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = try TestFolders.make("storerules-decision")
        defer { try? FileManager.default.removeItem(at: folder) }
        let authority = try SigningAuthority.generate(name: "StoreRules Decision Tests")

        // The host's attributes of ana are read in her grant's decision; the first read waits for the test.
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holding = Mutex(true)
        let location = try Self.ledger(backend, in: folder)
        var configuration = ServiceConfiguration(
            folder: packageRoot.appending(path: "Examples/BackyardBirds").path,
            ledger: location, rootCertificates: [authority.rootCertificate],
            bundleId: "com.example.backyardbirds", environment: .sandbox)
        configuration.customerAttributes = { customerID in
            if customerID == "ana", holding.withLock({ let held = $0; $0 = false; return held }) {
                entered.signal()
                release.wait()
            }
            return [:]
        }
        let service = try Service(configuration: configuration)
        let server = try HTTPServer(handler: HTTPRouter(service: service, access: .unauthenticated),
                                    configuration: HTTPServerConfiguration(port: 0, threads: 4))
        defer { server.stop(grace: .zero) }

        let answerA = Mutex<RawResponse?>(nil)
        let finishedA = DispatchSemaphore(value: 0)
        let purchaseA = try Self.purchaseRequest(customer: "ana", transactionID: "4100", authority: authority)
        Thread {
            let answer = try? Self.exchange(purchaseA, port: server.port, timeout: .seconds(60))
            answerA.withLock { $0 = answer }
            finishedA.signal()
        }.start()
        try #require(entered.wait(timeout: .now() + 30) == .success, "A's grant was never decided")

        let purchaseB = try Self.exchange(
            try Self.purchaseRequest(customer: "bo", transactionID: "4200", authority: authority), port: server.port, timeout: .seconds(20))
        let storefrontB = try Self.exchange(
            "GET /v1/customers/bo/storefront?placement=home HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", port: server.port,
            timeout: .seconds(20))
        let customerB = try Self.exchange(
            "GET /v1/customers/bo HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", port: server.port, timeout: .seconds(20))
        let openTransactions = try Self.openTransactions(of: location)
        let aStillDeciding = answerA.withLock { $0 == nil }
        release.signal()
        try #require(finishedA.wait(timeout: .now() + 60) == .success)

        #expect(purchaseB.status == 200, "B's purchase: \(purchaseB.statusLine) \(purchaseB.body)")
        #expect(storefrontB.status == 200)
        #expect(customerB.status == 200)
        #expect(aStillDeciding, "A's decision was still waiting while B was answered")
        #expect(openTransactions == [], "a ledger connection was in a transaction while A's grant was decided")
        let answer = try #require(answerA.withLock { $0 })
        #expect(answer.status == 200, "A's purchase: \(answer.statusLine) \(answer.body)")
        let grantsA = try service.ledger.grants(ofTransaction: "4100")
        #expect(!grantsA.isEmpty)
        #expect(try service.ledger.transaction(id: "4100")?.grantState == .granted)
        #expect(try service.ledger.balances(customerID: "ana") == Dictionary(grantsA.map { ($0.item, $0.amount) }, uniquingKeysWith: +),
                "granted once")
        #expect(try service.ledger.checkInvariants().isEmpty)
    }

    /// A new ledger of `backend`: a file in `folder`, or a new database on the test server.
    static func ledger(_ backend: String, in folder: URL) throws -> LedgerLocation {
        guard backend == "postgres" else { return .sqlite(path: folder.appending(path: "ledger.sqlite").path) }
        let server = try #require(postgresServer, "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server (scripts/test.sh starts one)")
        var url = try #require(URLComponents(string: server), "STORERULES_TEST_POSTGRES_URL is not a URL: \(server)")
        let name = "decision_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection(url: server).execute("CREATE DATABASE \(name)")
        url.path = "/" + name
        return .postgres(url: url.string ?? server)
    }

    /// The states of the PostgreSQL connections to `ledger`'s database that are in a
    /// transaction, this one aside; none for SQLite, whose writer is checked by B's purchase.
    static func openTransactions(of ledger: LedgerLocation) throws -> [String] {
        guard case .postgres(let url) = ledger, let name = URLComponents(string: url)?.path.dropFirst() else { return [] }
        let rows = try PostgresConnection(url: url).execute(
            "SELECT state FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND xact_start IS NOT NULL",
            [.text(String(name))])
        return rows.map { (try? $0.decode(String.self, column: "state")) ?? "?" }
    }

    /// `POST /v1/transactions` of a box of pellets, signed by `authority`.
    static func purchaseRequest(customer: String, transactionID: String, authority: SigningAuthority) throws -> String {
        let now = Date()
        let transaction = JWSTransactionDecodedPayload(
            originalTransactionId: transactionID, transactionId: transactionID, bundleId: "com.example.backyardbirds",
            productId: "pellet.box", purchaseDate: now, originalPurchaseDate: now, quantity: 1, type: .consumable,
            inAppOwnershipType: .purchased, signedDate: now, environment: .sandbox, storefront: "USA",
            storefrontId: "143441", transactionReason: .purchase, currency: "USD", price: 990)
        let body = #"{"customer": "\#(customer)", "signed_transaction": "\#(try authority.sign(transaction))"}"#
        return "POST /v1/transactions HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// Sends `request` on a new connection and reads the answer until the server closes it.
    static func exchange(_ request: String, port: UInt16, timeout: Duration) throws -> RawResponse {
        let socket = try RawSocket(port: port)
        _ = socket.send(request)
        return RawResponse(socket.receive(timeout: timeout).text)
    }
}
