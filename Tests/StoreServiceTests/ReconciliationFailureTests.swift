import AppStoreServerAPI
import Foundation
import StoreCore
import StoreService
import StoreTesting
import Synchronization
import Testing

/// A reconcile that fails says what to check, naming the key id, issuer and bundle id in use
/// but never the key; the background schedule counts every outcome in the metrics.
@Suite struct ReconciliationFailureTests {
    /// A client of the loop's local store signing with a key the store never issued.
    static func clientWithUnknownKey(_ loop: ServiceLoop) throws -> (AppStoreServerAPIClient, privateKeyPEM: String) {
        let made = try AppStoreServerAPIKey.generate(keyID: "UNKNOWN123", issuerID: "5f1a2b3c-0000-4000-8000-00000000abcd")
        let client = try AppStoreServerAPIClient(
            key: made.key, verifier: loop.client.verifier, baseURL: URL(string: "http://local.store")!,
            transport: LocalStoreAPITransport(api: LocalStoreAPI(store: loop.store)))
        return (client, made.privateKeyPEM)
    }

    @Test("a 401 names the key id, issuer id and bundle id in use and the options to check, never the key")
    func unauthorizedNamesWhatToCheck() async throws {
        let loop = try ServiceLoop()
        let (client, privateKeyPEM) = try Self.clientWithUnknownKey(loop)
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await Reconciler(service: loop.service, client: client).reconcile()
        }
        let explanation = ReconciliationAdvice.explanation(of: try #require(error), client: client)
        #expect(explanation.contains("401"), "\(explanation)")
        #expect(explanation.contains("key id UNKNOWN123, issuer id 5f1a2b3c-0000-4000-8000-00000000abcd, bundle id com.example.backyardbirds"))
        #expect(explanation.contains("--app-store-key-id") && explanation.contains("--app-store-issuer-id"))
        let keyBody = privateKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        #expect(!explanation.contains(keyBody.prefix(24)))
        #expect(!explanation.contains("\n"))
    }

    @Test("the background schedule counts a failed reconcile and logs it with what to check")
    func scheduleCountsAndExplainsFailures() async throws {
        let loop = try ServiceLoop()
        let (client, _) = try Self.clientWithUnknownKey(loop)
        let metrics = ServiceMetrics()
        let lines = Mutex([String]())
        let logged = AsyncStream<Void>.makeStream()
        let schedule = ReconciliationSchedule(
            reconciler: Reconciler(service: loop.service, client: client), every: .milliseconds(10), lock: UnsharedLock(),
            metrics: metrics) { line in
                lines.withLock { $0.append(line) }
                logged.continuation.yield()
            }
        var iterator = logged.stream.makeAsyncIterator()
        _ = await iterator.next()
        schedule.stop()
        let first = try #require(lines.withLock { $0.first })
        #expect(first.hasPrefix("reconcile failed: ") && first.contains("check --app-store-key-id"), "\(first)")
        let exposition = metrics.exposition(unfinishedTransactions: nil, policyVersion: "v")
        #expect(exposition.contains(#"storerules_reconciliations_total{result="failure"}"#), "\(exposition)")
        #expect(exposition.contains("storerules_reconciliation_last_success_timestamp_seconds 0\n"), "an alert on its age fires from the start")
    }

    @Test("a reconcile that runs to its end is counted a success, with its changes and the time of the last success")
    func successIsCountedWithItsTime() {
        let metrics = ServiceMetrics()
        metrics.recordReconciliation(.success)
        metrics.recordReconciliation(.skipped)
        let exposition = metrics.exposition(unfinishedTransactions: nil, policyVersion: "v")
        #expect(exposition.contains(#"storerules_reconciliations_total{result="success"} 1"#))
        #expect(exposition.contains(#"storerules_reconciliations_total{result="skipped"} 1"#))
        #expect(exposition.contains("storerules_reconciliation_changes_total 0"))
        #expect(exposition.contains("storerules_reconciliation_last_success_timestamp_seconds "))
    }
}

/// A lock no other process shares: every reconcile runs.
struct UnsharedLock: ReconciliationLock {
    func withLockIfFree<T>(_ body: () async throws -> T) async throws -> T? {
        try await body()
    }
}
