import AppStoreServerAPI
import Foundation
import StoreCore
import SQLiteLedger
import StoreHTTP
import StoreTesting

/// Measures the App Store Server API client: tokens signed against OpenSSL's signing rate, and a
/// local store's transaction history paged over HTTP against the same pages in process.
public enum AppStoreAPIBench {
    /// Tokens signed per round.
    public static let tokenCount = 500
    /// Transactions of the benchmark's customer: pages of 20.
    public static let transactionCount = 200

    /// Measures both, each the best of ``BenchRounds/count`` rounds.
    ///
    /// - Throws: ``BenchFailure`` when the store, its key or its server cannot be made.
    public static func measure(folder: URL?) async throws -> AppStoreAPIBenchFigures {
        var figures = AppStoreAPIBenchFigures()
        let key: AppStoreServerAPIKey
        do {
            key = try AppStoreServerAPIKey.generate(keyID: "BENCHKEY01", issuerID: "bench-issuer").key
        } catch {
            throw BenchFailure("making an API key: \(error)")
        }
        let claims = AuthenticationClaims(iss: key.issuerID, iat: 1_800_000_000, exp: 1_800_000_300, bid: "com.example.bench")
        let message = Data(try AuthenticationTokenIssuer.sign(claims, key: key).split(separator: ".").prefix(2).joined(separator: ".").utf8)
        for _ in 0..<BenchRounds.count {
            figures.jwtSignsPerSecond = max(figures.jwtSignsPerSecond, try SignedDataBench.operationsPerSecond(count: tokenCount) {
                for _ in 0..<tokenCount { keep(try AuthenticationTokenIssuer.sign(claims, key: key)) }
            })
            figures.openSSLSignsPerSecond = max(figures.openSSLSignsPerSecond, try SignedDataBench.operationsPerSecond(count: tokenCount) {
                for _ in 0..<tokenCount { keep(try key.signatureForBench(message)) }
            })
        }
        figures.jwtToOpenSSLSignRatio = figures.jwtSignsPerSecond / figures.openSSLSignsPerSecond
        try await measureHistory(into: &figures, folder: folder)
        return figures
    }

    private static func measureHistory(into figures: inout AppStoreAPIBenchFigures, folder: URL?) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "storerules-bench-api-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundleID = "com.example.backyardbirds"
        let store: LocalStore
        let authority: SigningAuthority
        let key: AppStoreServerAPIKey
        let first: String
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let catalogFolder = folder ?? ServiceLoadTest.exampleFolder
            guard let catalogFile = try FileManager.default.contentsOfDirectory(at: catalogFolder, includingPropertiesForKeys: nil)
                .first(where: { $0.pathExtension == "storekit" }) else { throw BenchFailure("\(catalogFolder.path) has no .storekit file") }
            authority = try SigningAuthority.generate(name: "StoreRules Bench")
            store = try LocalStore(
                catalog: try Catalog(contentsOf: catalogFile), authority: authority,
                ledger: try Ledger(path: directory.appending(path: "ledger.sqlite").path),
                state: try Database(path: directory.appending(path: "store.sqlite").path),
                configuration: LocalStore.Configuration(bundleID: bundleID, environment: .sandbox, clock: .manual(startingAt: Date())),
                decide: { _ in [] })
            guard let product = store.catalog.products.first(where: { $0.type == .consumable })?.id else {
                throw BenchFailure("\(catalogFile.lastPathComponent) has no consumable to buy")
            }
            var ids: [String] = []
            for _ in 0..<transactionCount {
                guard case .success(let transaction) = try store.purchase(product, customer: "bench") else { throw BenchFailure("a purchase failed") }
                ids.append(transaction.payload.transactionId ?? "")
            }
            first = ids[0]
            key = try store.makeServerAPIKey().key
        } catch let failure as BenchFailure {
            throw failure
        } catch {
            throw BenchFailure("preparing the local store: \(error)")
        }
        let api = LocalStoreAPI(store: store)
        let server: HTTPServer
        let verifier: SignedDataVerifier
        let overHTTP: AppStoreServerAPIClient
        let inProcess: AppStoreServerAPIClient
        do {
            server = try HTTPServer(handler: AppStoreServerAPIHandler(answer: api.respond),
                                    configuration: HTTPServerConfiguration(port: 0, threads: 2))
            verifier = try SignedDataVerifier(rootCertificates: [authority.rootCertificate], bundleId: bundleID, environment: .sandbox)
            overHTTP = try AppStoreServerAPIClient(key: key, verifier: verifier, baseURL: URL(string: "http://127.0.0.1:\(server.port)"),
                                                   retry: .never)
            inProcess = try AppStoreServerAPIClient(key: key, verifier: verifier, baseURL: URL(string: "http://in.process"),
                                                    transport: LocalStoreAPITransport(api: api), retry: .never)
        } catch {
            throw BenchFailure("serving the local store's API: \(error)")
        }
        defer { server.stop(grace: .zero) }
        let pages = (transactionCount + LocalStoreAPI.pageSize - 1) / LocalStoreAPI.pageSize
        for _ in 0..<BenchRounds.count {
            figures.historyPagesPerSecondOverHTTP = max(figures.historyPagesPerSecondOverHTTP,
                                                        try await pagesPerSecond(overHTTP, from: first, expecting: pages))
            figures.historyPagesPerSecondInProcess = max(figures.historyPagesPerSecondInProcess,
                                                         try await pagesPerSecond(inProcess, from: first, expecting: pages))
        }
        figures.historyHTTPToInProcessRatio = figures.historyPagesPerSecondOverHTTP / figures.historyPagesPerSecondInProcess
    }

    private static func pagesPerSecond(_ client: AppStoreServerAPIClient, from transactionID: String, expecting pages: Int) async throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        var read = 0
        do {
            for try await page in client.transactionHistory(transactionID) {
                keep(page)
                read += 1
            }
        } catch {
            throw BenchFailure("paging the local store's history: \(error)")
        }
        guard read == pages else { throw BenchFailure("the history had \(read) pages, not \(pages)") }
        return Double(read) / (clock.now - started).seconds
    }
}
