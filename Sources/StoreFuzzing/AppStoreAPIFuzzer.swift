import AppStoreServerAPI
import Foundation
import StoreCore
import SQLiteLedger
import StoreTesting

/// The App Store Server API client's reading of answers: the input is the body of a success
/// (and of a failure) of every endpoint, decoded and its signed items verified as the client
/// does; the input is a bearer token the local store's API checks, a promotional offer's
/// signature its cancel screen checks, and a retention answer it reads; and the input is a request
/// the local store's API answers (its first line the target, the rest the body, under each
/// method). Seeds are the answers a local store's API gives, and requests to it.
final class AppStoreAPIFuzzer: @unchecked Sendable {
    private let client: AppStoreServerAPIClient
    private let transport: AnsweringTransport
    private let tokens: AuthenticationTokenVerifier
    private let store: LocalStore
    private let api: LocalStoreAPI
    private let directory: URL

    init(packageRoot: URL) throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "storerules-fuzz-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let authority = try SigningAuthority.generate(name: "StoreRules Fuzzing")
        let catalog = try Catalog(contentsOf: packageRoot.appending(path: "Examples/BackyardBirds/Products.storekit"))
        store = try LocalStore(
            catalog: catalog, authority: authority, ledger: try Ledger(path: directory.appending(path: "ledger.sqlite").path),
            state: try Database(path: directory.appending(path: "store.sqlite").path),
            configuration: LocalStore.Configuration(bundleID: SignedDataFuzzer.bundleId, environment: .sandbox, clock: .manual(startingAt: Date())),
            decide: { _ in [] })
        let key = try store.makeServerAPIKey().key
        tokens = try store.serverAPITokenVerifier()
        api = LocalStoreAPI(store: store)
        transport = AnsweringTransport()
        let verifier = try SignedDataVerifier(rootCertificates: [authority.rootCertificate], bundleId: SignedDataFuzzer.bundleId,
                                              environment: .sandbox)
        client = try AppStoreServerAPIClient(key: key, verifier: verifier, baseURL: URL(string: "http://fuzz")!, transport: transport,
                                             retry: .never)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The input as every endpoint's answer, with statuses 200 and 400, as a bearer token, and
    /// as a request to the local store's API.
    func decode(_ input: Data) {
        _ = tokens.verify(authorization: "Bearer " + String(decoding: input, as: UTF8.self))
        _ = tokens.verifyPromotionalOffer(String(decoding: input, as: UTF8.self))
        _ = try? JSONDecoder().decode(RealtimeResponseBody.self, from: input)
        answerAsRequest(input)
        for status in [200, 400] {
            transport.answer = AppStoreServerAPIResponse(status: status, headers: ["Content-Type": "application/json"], body: input)
            let done = DispatchSemaphore(value: 0)
            Task { [client] in
                defer { done.signal() }
                await Self.callEveryEndpoint(client)
            }
            done.wait()
        }
    }

    /// The input's first line as a request target (`/inApps/…?…`), the rest as its body, sent to
    /// the local store's API with a valid token under each method.
    private func answerAsRequest(_ input: Data) {
        let newline = input.firstIndex(of: 0x0A) ?? input.endIndex
        let target = String(decoding: input[input.startIndex..<newline], as: UTF8.self)
        let body = newline < input.endIndex ? input[input.index(after: newline)...] : Data()
        let question = target.firstIndex(of: "?")
        let path = String(target[..<(question ?? target.endIndex)])
        let query = question.map { target[target.index(after: $0)...] } ?? ""
        let items = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return AppStoreServerAPIRequest.QueryItem(String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        guard let token = try? client.tokens.token() else { return }
        for method in ["GET", "POST", "PUT"] {
            _ = api.respond(to: AppStoreServerAPIRequest(method: method, path: path, queryItems: items, body: Data(body)),
                            authorization: "Bearer \(token)")
        }
    }

    private static func callEveryEndpoint(_ client: AppStoreServerAPIClient) async {
        _ = try? await client.transactionInfo("1")
        _ = try? await client.transactionHistoryPage("1")
        _ = try? await client.refundHistoryPage("1")
        _ = try? await client.subscriptionStatuses("1")
        _ = try? await client.lookUpOrder("ORDER")
        _ = try? await client.notificationHistoryPage(NotificationHistoryRequest(startDate: 0, endDate: 1))
        _ = try? await client.testNotificationStatus("token")
        _ = try? await client.requestTestNotification()
        _ = try? await client.appTransactionInfo("1")
        _ = try? await client.massExtensionStatus(productID: "p", requestIdentifier: "r")
        _ = try? await client.extendRenewalDate(originalTransactionID: "1",
                                                ExtendRenewalDateRequest(extendByDays: 1, extendReasonCode: 0, requestIdentifier: "r"))
    }

    /// The local store's answers to each reading endpoint after a few purchases, and error bodies.
    func seeds() throws -> [Data] {
        for product in ["pass.premium", "pellet.box", "nectar.cup"] {
            _ = try store.purchase(product, customer: "ana")
        }
        let api = LocalStoreAPI(store: store)
        let token = try client.tokens.token()
        let now = try store.now().millisecondsSince1970
        let history = try JSONEncoder().encode(NotificationHistoryRequest(startDate: now - 86_400_000, endDate: now + 86_400_000))
        let requests = [
            AppStoreServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/2000000000000001"),
            AppStoreServerAPIRequest(method: "GET", path: "/inApps/v2/history/2000000000000001"),
            AppStoreServerAPIRequest(method: "GET", path: "/inApps/v1/subscriptions/2000000000000001"),
            AppStoreServerAPIRequest(method: "GET", path: "/inApps/v2/refund/lookup/2000000000000001"),
            AppStoreServerAPIRequest(method: "POST", path: "/inApps/v1/notifications/history", body: history),
            AppStoreServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/appTransactions/2000000000000001"),
            AppStoreServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/999"),
        ]
        let targets = [
            "/inApps/v2/history/2000000000000001?productType=CONSUMABLE&productType=AUTO_RENEWABLE&sort=DESCENDING&revoked=True",
            "/inApps/v1/subscriptions/2000000000000001?status=1&status=5",
            "/inApps/v1/subscriptions/extend/2000000000000001\n{\"extendByDays\":3,\"extendReasonCode\":3,\"requestIdentifier\":\"r\"}",
            "/inApps/v2/transactions/consumption/2000000000000002\n{\"customerConsented\":true,\"sampleContentProvided\":false,\"deliveryStatus\":\"DELIVERED\"}",
            "/inApps/v1/notifications/history?paginationToken=bjox\n" + String(decoding: history, as: UTF8.self),
        ].map { Data($0.utf8) }
        return requests.map { api.respond(to: $0, authorization: "Bearer \(token)").body } + [Data(token.utf8)] + targets
    }

    /// Answers every request with the one answer set last.
    private final class AnsweringTransport: AppStoreServerAPITransport, @unchecked Sendable {
        var answer = AppStoreServerAPIResponse(status: 200)

        func send(_ request: AppStoreServerAPIRequest, to baseURL: URL, headers: [String: String]) async throws(AppStoreServerAPIError)
            -> AppStoreServerAPIResponse {
            answer
        }
    }
}
