import AppStoreServerAPI
import Foundation
import StoreCore
import Synchronization
import Testing

/// A transport answering from a script, one answer per request, recording each request: how
/// the client's retries are seen without an unreliable server.
final class ScriptedTransport: AppStoreServerAPITransport {
    enum Step {
        case answer(AppStoreServerAPIResponse)
        case fail(String)
    }
    private let steps: Mutex<[Step]>
    private let sent = Mutex<[AppStoreServerAPIRequest]>([])

    init(_ steps: [Step]) {
        self.steps = Mutex(steps)
    }

    var requests: [AppStoreServerAPIRequest] { sent.withLock { $0 } }

    func send(_ request: AppStoreServerAPIRequest, to baseURL: URL, headers: [String: String]) async throws(AppStoreServerAPIError)
        -> AppStoreServerAPIResponse {
        sent.withLock { $0.append(request) }
        let step = steps.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        switch step {
        case .answer(let response)?: return response
        case .fail(let reason)?: throw .transport(reason)
        case nil: throw .transport("the script ran out")
        }
    }

    static func error(_ status: Int, _ code: Int, headers: [String: String] = [:]) -> Step {
        .answer(AppStoreServerAPIResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 },
                                          body: Data(#"{"errorCode":\#(code),"errorMessage":"scripted"}"#.utf8)))
    }

    static let emptyHistory = Step.answer(AppStoreServerAPIResponse(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(#"{"revision":"r1","hasMore":false,"bundleId":"com.example.app","environment":"Sandbox","signedTransactions":[]}"#.utf8)))
}

@Suite struct RetryTests {
    static func client(_ transport: ScriptedTransport, attempts: Int = 4) throws -> AppStoreServerAPIClient {
        let key = try AppStoreServerAPIKey.generate(keyID: "KEY", issuerID: "ISSUER").key
        let verifier = try SignedDataVerifier(rootCertificates: [], bundleId: "com.example.app", environment: .localTesting)
        return try AppStoreServerAPIClient(key: key, verifier: verifier, baseURL: URL(string: "http://scripted")!, transport: transport,
                                           retry: Backoff(maximumAttempts: attempts, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(20)))
    }

    @Test func theRateLimitIsRetriedAfterWhatRetryAfterAsks() async throws {
        let transport = ScriptedTransport([ScriptedTransport.error(429, 4290000, headers: ["Retry-After": "0"]), ScriptedTransport.emptyHistory])
        let page = try await Self.client(transport).transactionHistoryPage("1")
        #expect(page.revision == "r1")
        #expect(transport.requests.count == 2)
    }

    @Test func aRetryableCodeIsTriedAtMostTheAttemptsAllowed() async throws {
        let transport = ScriptedTransport(Array(repeating: ScriptedTransport.error(500, 5000001), count: 5))
        await #expect(throws: AppStoreServerAPIError.api(status: 500, code: APIErrorCode(.generalInternalRetryable), message: "scripted")) {
            _ = try await Self.client(transport, attempts: 3).transactionInfo("1")
        }
        #expect(transport.requests.count == 3)
    }

    @Test func aFailureThatCannotPassIsNotRetried() async throws {
        let transport = ScriptedTransport([ScriptedTransport.error(404, 4040010), ScriptedTransport.emptyHistory])
        await #expect(throws: AppStoreServerAPIError.api(status: 404, code: APIErrorCode(.transactionIdNotFound), message: "scripted")) {
            _ = try await Self.client(transport).transactionInfo("1")
        }
        #expect(transport.requests.count == 1)
    }

    @Test func aLostConnectionIsRetried() async throws {
        let transport = ScriptedTransport([.fail("connection reset"), ScriptedTransport.emptyHistory])
        _ = try await Self.client(transport).transactionHistoryPage("1")
        #expect(transport.requests.count == 2)
    }

    @Test func anErrorBodyIsReadOnlyAsJSON() async throws {
        let transport = ScriptedTransport([.answer(AppStoreServerAPIResponse(status: 400, headers: ["Content-Type": "text/html"],
                                                                            body: Data(#"{"errorCode":4000006,"errorMessage":"x"}"#.utf8)))])
        await #expect(throws: AppStoreServerAPIError.api(status: 400, code: nil, message: nil)) {
            _ = try await Self.client(transport).transactionInfo("1")
        }
    }

    @Test func repeatedFiltersTravelAsRepeatedQueryItems() async throws {
        let transport = ScriptedTransport([ScriptedTransport.emptyHistory])
        let query = TransactionHistoryQuery(productIDs: ["a", "b c"], productTypes: ["CONSUMABLE", "AUTO_RENEWABLE"], sort: .descending, revoked: false)
        _ = try await Self.client(transport).transactionHistoryPage("1", query: query, revision: "r0")
        #expect(transport.requests.first?.target
            == "/inApps/v2/history/1?revision=r0&productId=a&productId=b%20c&productType=CONSUMABLE&productType=AUTO_RENEWABLE&sort=DESCENDING&revoked=false")
    }

    @Test func theRetryDelayGrowsAndStaysBounded() {
        let policy = Backoff(maximumAttempts: 10, initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
        for attempt in 1...8 {
            let delay = policy.delay(beforeRetry: attempt, retryAfter: nil)
            let step = min(Duration.milliseconds(100) * (1 << (attempt - 1)), .seconds(1))
            #expect(delay >= step / 2 && delay <= step, "attempt \(attempt): \(delay)")
        }
        #expect(policy.delay(beforeRetry: 1, retryAfter: "3") == .seconds(1))
        #expect(policy.delay(beforeRetry: 1, retryAfter: "0") == .zero)
    }
}
