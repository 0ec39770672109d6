import AppStoreServerAPI
import Foundation
import StoreCore
import StoreService
import StoreTesting
import Testing

/// A ledger that cannot be read for a moment never makes the service decide about a customer
/// as if it did not know them: a refund request waits and is answered once the ledger reads
/// again; the cancel screen gets Apple's default message.
@Suite struct LedgerFailureDecisionTests {
    static let bundleID = "com.example.backyardbirds"
    static let authority: SigningAuthority = {
        do {
            return try SigningAuthority.generate()
        } catch {
            fatalError("cannot generate the test signing authority: \(error)")
        }
    }()

    /// The local store playing Apple, and a service whose ledger knows `ana`, who bought a box
    /// of pellets and fed four of them to the birds.
    struct Loop {
        let directory: URL
        let store: LocalStore
        let service: Service
        let client: AppStoreServerAPIClient
        let transactionID: String
        let token: UUID
        var serviceLedgerPath: String { directory.appending(path: "service.sqlite").path }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appending(path: "ledger-failure-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let folder = packageRoot.appending(path: "Examples/BackyardBirds")
            store = try LocalStore(
                catalog: try Catalog(contentsOf: folder.appending(path: "Products.storekit")), authority: LedgerFailureDecisionTests.authority,
                ledger: try Ledger(path: directory.appending(path: "store-ledger.sqlite").path),
                state: try Database(path: directory.appending(path: "store.sqlite").path),
                configuration: LocalStore.Configuration(bundleID: LedgerFailureDecisionTests.bundleID, environment: .sandbox),
                decide: { _ in [] })
            service = try Service(configuration: ServiceConfiguration(
                folder: folder.path, ledger: SQLiteLedgerFile(path: directory.appending(path: "service.sqlite").path),
                rootCertificates: [LedgerFailureDecisionTests.authority.rootCertificate], bundleId: LedgerFailureDecisionTests.bundleID,
                environment: .sandbox))
            let verifier = try SignedDataVerifier(rootCertificates: [LedgerFailureDecisionTests.authority.rootCertificate],
                                                  bundleId: LedgerFailureDecisionTests.bundleID, environment: .sandbox)
            client = try AppStoreServerAPIClient(key: try store.makeServerAPIKey().key, verifier: verifier,
                                                 baseURL: URL(string: "http://local.store")!,
                                                 transport: LocalStoreAPITransport(api: LocalStoreAPI(store: store)))
            token = UUID()
            _ = try service.answer(.registerCustomer(customerID: "ana", appAccountToken: token.uuidString.lowercased()))
            guard case .success(let bought) = try store.purchase("pellet.box", customer: "ana", options: [.appAccountToken(token)]),
                  let id = bought.payload.transactionId else { throw LoopFailure() }
            transactionID = id
            try deliver(try store.notifications())
            for _ in 0..<4 { _ = try service.answer(.recordEvent(customerID: "ana", name: "fed_pellet", placement: nil)) }
        }

        func deliver(_ notifications: [StoreNotification]) throws {
            for notification in notifications {
                _ = try service.answer(.ingestNotification(jws: notification.signed.jwsRepresentation, customerID: nil))
            }
        }

        /// Runs `body` while the service ledger's transactions cannot be read.
        func withTransactionsUnreadable<T>(_ body: () async throws -> T) async throws -> T {
            let database = try Database(path: serviceLedgerPath)
            try database.write { try $0.execute("ALTER TABLE store_transaction RENAME TO store_transaction_away") }
            let result = try await body()
            try database.write { try $0.execute("ALTER TABLE store_transaction_away RENAME TO store_transaction") }
            return result
        }
    }

    struct LoopFailure: Error {}

    @Test func aRefundRequestWaitsForTheLedgerInsteadOfAnsweringForNobody() async throws {
        let loop = try Loop()
        try loop.deliver(try loop.store.requestRefund(transactionID: loop.transactionID))
        let responder = ConsumptionResponder(service: loop.service, client: loop.client)
        let now = Date()
        let waited = try await loop.withTransactionsUnreadable { try await responder.answerDue(now: now) }
        #expect(waited.map(\.request.state) == [.pending])
        #expect(waited.first?.request.answer == nil)
        #expect(waited.first?.request.lastError?.contains("store_transaction") == true, "\(String(describing: waited.first?.request.lastError))")
        #expect(try loop.store.consumptionRecords(transactionID: loop.transactionID).isEmpty, "nothing was sent")

        let answered = try await responder.answerDue(now: now.addingTimeInterval(120))
        #expect(answered.map(\.request.state) == [.answered])
        let sent = try #require(try loop.store.consumptionRecords(transactionID: loop.transactionID).first)
        #expect(sent.body.contains(#""consumptionPercentage":80000"#), "four of five pellets fed: \(sent.body)")
        #expect(sent.body.contains(#""refundPreference":"DECLINE""#))
    }

    @Test func theCancelScreenGetsTheDefaultMessageWhileTheLedgerCannotBeRead() async throws {
        let loop = try Loop()
        guard case .success(let pass) = try loop.store.purchase("pass.premium", customer: "ana", options: [.appAccountToken(loop.token)]),
              let originalID = pass.payload.originalTransactionId else { throw LoopFailure() }
        try loop.deliver(try loop.store.notifications(after: 1))
        _ = try loop.service.answer(.recordEvent(customerID: "ana", name: "price_rise_seen", placement: nil))
        let request = DecodedRealtimeRequestBody(originalTransactionId: originalID, productId: "pass.premium", userLocale: "en_US",
                                                 requestIdentifier: UUID().uuidString.lowercased(), signedDate: Date(), environment: .sandbox)
        let signed = try Self.authority.sign(request)
        // With a key to sign offers, a subscriber the ledger does not know would be offered Premium's
        // promotional offer: the ledger's failure must not make ana such a subscriber.
        let signer = PromotionalOfferSignatureIssuer(key: try loop.store.makeServerAPIKey().key, bundleID: Self.bundleID)
        let responder = RetentionResponder(service: loop.service, offerSigner: signer, metrics: ServiceMetrics(), decisionLog: nil, log: { _ in })
        let unreadable = try await loop.withTransactionsUnreadable { try responder.answer(signedPayload: signed, requestID: "r1") }
        #expect(unreadable == .defaultMessage)
        let readable = try responder.answer(signedPayload: signed, requestID: "r2")
        #expect(readable.alternateProduct?.productId == "pass.family", "the policy answers once the ledger reads again")
    }
}
