import Foundation
import PostgresLedger
import StoreCore
import StoreHTTP
import StoreService
import Synchronization
import Testing
import TestPrerequisites

/// Through the HTTP server `storerules serve` runs, over a PostgreSQL ledger whose server stops
/// answering (every process of a server of the test's own stopped with SIGSTOP): what reads the
/// ledger answers `503` with `Retry-After` at its deadline, `/healthz` answers while those
/// requests hold every route thread, and the ledger is read again once its server answers.
@Suite(.enabled(if: TestPrerequisite.runs(ProcessInfo.processInfo.environment["STORERULES_TEST_POSTGRES_URL"].map { !$0.isEmpty } ?? false),
                "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server (scripts/test.sh starts one)"),
       .timeLimit(.minutes(5)))
struct FrozenLedgerHTTPTests {
    /// A PostgreSQL ledger whose exchanges are bounded by `timeouts`.
    struct PostgresLedgerWithDeadlines: ServiceLedgerSource {
        let url: String
        let timeouts: PostgresTimeouts
        var displayName: String { url }
        func openLedger() throws -> Ledger { Ledger(storage: try PostgresLedgerStorage(url: url, timeouts: timeouts)) }
        func printable(_ error: any Error) -> String { "\(error)" }
    }

    @Test("with the ledger's server frozen, customer reads and /readyz answer 503 with Retry-After, /healthz answers 200 while they hold every route thread, and reads work again once it answers")
    func frozenLedger() throws {
        let postgres = try FreezablePostgresServer()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // Long enough that the requests still wait while /healthz is asked, short enough for a test.
        let timeouts = PostgresTimeouts(connect: .seconds(10), statement: .seconds(10), checkout: .seconds(10))
        let service = try Service(configuration: ServiceConfiguration(
            folder: packageRoot.appending(path: "Examples/BackyardBirds").path,
            ledger: PostgresLedgerWithDeadlines(url: postgres.url, timeouts: timeouts), rootCertificates: [],
            bundleId: "com.example.backyardbirds", environment: .xcode))
        let server = try HTTPServer(handler: HTTPRouter(service: service, access: .unauthenticated, log: { _ in }),
                                    configuration: HTTPServerConfiguration(port: 0, threads: 2))
        defer { server.stop(grace: .zero) }

        try postgres.freeze()
        let targets = ["/v1/customers/ana", "/v1/customers/bo", "/readyz"]
        let answers = Mutex<[RawResponse]>([])
        let finished = DispatchSemaphore(value: 0)
        for target in targets {
            Thread {
                let answer = try? Self.get(target, port: server.port)
                answers.withLock { $0.append(answer ?? RawResponse("")) }
                finished.signal()
            }.start()
        }
        // Two of them hold the two route threads, waiting on the frozen ledger; one waits for a thread.
        let arrival = ContinuousClock.now + .seconds(60)
        while server.requestsBeingAnswered < targets.count, ContinuousClock.now < arrival { Thread.sleep(forTimeInterval: 0.01) }
        let allWaiting = server.requestsBeingAnswered == targets.count && answers.withLock { $0.isEmpty }
        let health = try Self.get("/healthz", port: server.port)
        let answeredBeforeHealth = answers.withLock { $0.count }
        let allAnswered = targets.allSatisfy { _ in finished.wait(timeout: .now() + 120) == .success }
        try postgres.thaw()
        let afterThaw = try Self.get("/v1/customers/ana", port: server.port)

        try #require(allWaiting, "the requests never all waited on the ledger")
        #expect(health.status == 200, "\(health.statusLine) \(health.body)")
        #expect(answeredBeforeHealth == 0, "/healthz was answered only after a request waiting on the ledger")
        try #require(allAnswered, "a request waiting on the frozen ledger was never answered")
        for answer in answers.withLock({ $0 }) {
            #expect(answer.status == 503, "\(answer.statusLine) \(answer.body)")
            #expect(answer.header("Retry-After") == "5")
        }
        #expect(afterThaw.status == 404, "the ledger answers again: ana is not a customer — \(afterThaw.statusLine) \(afterThaw.body)")
    }

    /// `GET target` on a new connection, read until the server closes it.
    static func get(_ target: String, port: UInt16) throws -> RawResponse {
        let socket = try RawSocket(port: port)
        socket.send("GET \(target) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        return RawResponse(socket.receive(timeout: .seconds(120)).text)
    }
}
