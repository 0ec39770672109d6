import AppStoreServerAPI
import Foundation
import StoreCore
import SQLiteLedger
import StoreService
import StoreTesting
import Synchronization
import Testing

/// A refund request for a purchase the ledger has not granted — its notification kept because
/// no customer registered its app account token — is not decided on a customer who received
/// nothing: it waits, is answered as delivered once registering the customer grants it, and
/// otherwise is decided near the end of Apple's window with `tx.granted = false`, which the
/// Backyard Birds rule answers as undelivered.
@Suite struct RefundWaitsForGrantTests {
    /// Bo buys a box of pellets with a token no customer has registered, and asks for a refund.
    struct KeptPurchase {
        let loop: ServiceLoop
        let token = UUID()
        let transactionID: String

        init() throws {
            loop = try ServiceLoop()
            guard case .success(let bought) = try loop.store.purchase("pellet.box", customer: "bo", options: [.appAccountToken(token)]),
                  let id = bought.payload.transactionId else { throw ServiceLoop.Failure() }
            transactionID = id
            try loop.deliver(try loop.store.notifications(customerID: "bo"))
            try loop.deliver(try loop.store.requestRefund(transactionID: id))
        }

        /// The one request the ledger keeps.
        func request() throws -> ConsumptionRequestRecord {
            let requests = try loop.service.ledger.consumptionRequests()
            try #require(requests.count == 1)
            return requests[0]
        }

        /// What the store's API received for the purchase.
        func sent() throws -> [ConsumptionRecord] {
            try loop.store.consumptionRecords(transactionID: transactionID)
        }
    }

    @Test func aRequestForAPurchaseKeptPendingWaitsAndIsAnsweredAsDeliveredOnceItsCustomerRegisters() async throws {
        let bo = try KeptPurchase()
        #expect(try bo.loop.service.ledger.transaction(id: bo.transactionID) == nil, "kept, not stored: no one registered the token")
        let woken = Mutex(0)
        bo.loop.service.onConsumptionRequest { woken.withLock { $0 += 1 } }
        let responder = ConsumptionResponder(service: bo.loop.service, client: bo.loop.client)
        let now = Date()

        let waited = try await responder.answerDue(now: now)
        #expect(waited.map(\.state) == [.pending])
        #expect(waited.first?.isWaitingForGrant == true)
        let waiting = try bo.request()
        #expect(waiting.answer == nil)
        #expect(waiting.attempts == 0, "waiting is no attempt")
        #expect(waiting.nextAttemptDate == now.millisecondsSince1970 + ConsumptionResponder.grantCheckInterval)
        #expect(waiting.lastError?.contains("waiting for the ledger to grant transaction \(bo.transactionID)") == true, "\(waiting)")
        #expect(waiting.lastError?.contains("its notification is kept until a customer registers its app account token") == true)
        #expect(try bo.sent().isEmpty, "nothing is told Apple about a purchase no one received yet")
        let line = ConsumptionSchedule.describe(try #require(waited.first))
        #expect(line.contains("waiting for the ledger to grant"), "\(line)")
        #expect(try await responder.answerDue(now: now.addingTimeInterval(1)).isEmpty, "not due again before the grant or its next look")

        _ = try bo.loop.service.answer(.registerCustomer(customerID: "bo", appAccountToken: bo.token.uuidString.lowercased()))
        #expect(try bo.loop.service.ledger.transaction(id: bo.transactionID)?.grantState == .granted)
        #expect(woken.withLock { $0 } == 1, "the grant wakes the responder")
        let answered = try await responder.answerDue(now: Date())
        #expect(answered.map(\.state) == [.answered], "the grant made the request due at once")
        let body = try #require(try bo.sent().first).body
        #expect(body.contains(#""deliveryStatus":"DELIVERED""#), "\(body)")
        #expect(body.contains(#""consumptionPercentage":0"#), "five pellets granted, none fed: \(body)")
        #expect(body.contains(#""refundPreference":"GRANT_FULL""#), "\(body)")
    }

    @Test func aServiceStartingOverACustomerRegisteredMeanwhileAnswersTheWaitingRequestAtOnce() async throws {
        let bo = try KeptPurchase()
        let now = Date()
        #expect(try await ConsumptionResponder(service: bo.loop.service, client: bo.loop.client).answerDue(now: now)
            .map(\.isWaitingForGrant) == [true])
        // Another process registers bo while this service does not run.
        try Ledger(path: bo.loop.serviceLedgerPath).registerCustomer(id: "bo", appAccountToken: bo.token.uuidString.lowercased())
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let restarted = try Service(configuration: ServiceConfiguration(
            folder: packageRoot.appending(path: "Examples/BackyardBirds").path, ledger: SQLiteLedgerFile(path: bo.loop.serviceLedgerPath),
            rootCertificates: [ServiceLoop.authority.rootCertificate], bundleId: ServiceLoop.bundleID, environment: .sandbox))
        let answered = try await ConsumptionResponder(service: restarted, client: bo.loop.client).answerDue()
        #expect(answered.map(\.state) == [.answered], "granted as the service started, and due at once")
        #expect(try bo.sent().first?.body.contains(#""deliveryStatus":"DELIVERED""#) == true)
    }

    @Test func aPurchaseNeverGrantedIsDecidedUndeliveredAnHourBeforeApplesWindowCloses() async throws {
        let bo = try KeptPurchase()
        let logFile = bo.loop.directory.appending(path: "decisions.jsonl")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let responder = ConsumptionResponder(service: bo.loop.service, client: bo.loop.client,
                                             recorder: DecisionRecorder(log: DecisionLog(handle: try FileHandle(forWritingTo: logFile))))
        let lastCall = try bo.request().deadlineDate - ConsumptionResponder.ungrantedDecisionLead

        let late = Date(millisecondsSince1970: lastCall - 60_000)
        #expect(try await responder.answerDue(now: late).map(\.isWaitingForGrant) == [true])
        #expect(try bo.request().nextAttemptDate == lastCall, "its next look is the last call, not past it")
        #expect(try bo.sent().isEmpty)

        let decided = try await responder.answerDue(now: Date(millisecondsSince1970: lastCall))
        #expect(decided.map(\.state) == [.answered])
        let body = try #require(try bo.sent().first).body
        #expect(body.contains(#""deliveryStatus":"UNDELIVERED_OTHER""#), "\(body)")
        #expect(body.contains(#""refundPreference":"GRANT_FULL""#), "\(body)")
        #expect(!body.contains("consumptionPercentage"), "\(body)")
        let kept = try bo.request()
        #expect(kept.lastError?.contains("decided with tx.granted = false") == true, "\(kept)")
        let line = ConsumptionSchedule.describe(try #require(decided.first))
        #expect(line.contains("answered: decided with tx.granted = false"), "\(line)")
        let logged = try String(contentsOf: logFile, encoding: .utf8)
        #expect(logged.contains(#""granted":false"#), "\(logged)")
        #expect(logged.contains(#""consumption""#), "\(logged)")
    }

    @Test func theNoteOfADecisionWithoutAGrantOutlastsAFailedSend() async throws {
        let bo = try KeptPurchase()
        let lastCall = Date(millisecondsSince1970: try bo.request().deadlineDate - ConsumptionResponder.ungrantedDecisionLead)
        // A client whose App Store Server API does not answer: nothing listens on the port.
        let unreachable = try AppStoreServerAPIClient(
            key: try bo.loop.store.makeServerAPIKey().key,
            verifier: try SignedDataVerifier(rootCertificates: [ServiceLoop.authority.rootCertificate], bundleId: ServiceLoop.bundleID,
                                             environment: .sandbox),
            baseURL: URL(string: "http://127.0.0.1:1")!, retry: .never)
        let failed = try await ConsumptionResponder(service: bo.loop.service, client: unreachable).answerDue(now: lastCall)
        #expect(failed.map(\.state) == [.pending])
        let kept = try bo.request()
        #expect(kept.answer?.deliveryStatus == .undeliveredOther)
        #expect(kept.lastError?.hasPrefix("decided with tx.granted = false") == true, "\(String(describing: kept.lastError))")
        #expect(kept.lastError?.contains("; sending: ") == true, "\(String(describing: kept.lastError))")

        let retry = Date(millisecondsSince1970: kept.nextAttemptDate)
        let sent = try await ConsumptionResponder(service: bo.loop.service, client: bo.loop.client).answerDue(now: retry)
        #expect(sent.map(\.state) == [.answered])
        let answered = try bo.request()
        #expect(answered.lastError?.hasPrefix("decided with tx.granted = false: the ledger had not granted it") == true,
                "\(String(describing: answered.lastError))")
        #expect(answered.lastError?.contains("sending") == false, "\(String(describing: answered.lastError))")
    }

    @Test func aRefundRequestThatBringsItsPurchaseWakesTheResponderOnceThePurchaseIsGranted() throws {
        let loop = try ServiceLoop()
        guard case .success(let bought) = try loop.store.purchase("pellet.box", customer: "ana", options: [.appAccountToken(loop.token)]),
              let id = bought.payload.transactionId else { throw ServiceLoop.Failure() }
        // The purchase's own notification never reaches the service: the refund request's carries it.
        let service = loop.service
        let seen = Mutex<[GrantState?]>([])
        service.onConsumptionRequest { seen.withLock { $0.append((try? service.ledger.transaction(id: id))??.grantState) } }
        try loop.deliver(try loop.store.requestRefund(transactionID: id))
        #expect(seen.withLock { $0 } == [.granted], "woken after the notification granted what the answer reads")
    }

    @Test func aGrantedPurchaseIsDecidedAtOnceWithItsGrantsInTheDecisionLog() async throws {
        let loop = try ServiceLoop()
        try loop.deliver(try loop.store.requestRefund(transactionID: loop.transactionID))
        let logFile = loop.directory.appending(path: "decisions.jsonl")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let responder = ConsumptionResponder(service: loop.service, client: loop.client,
                                             recorder: DecisionRecorder(log: DecisionLog(handle: try FileHandle(forWritingTo: logFile))))
        let answered = try await responder.answerDue()
        #expect(answered.map(\.state) == [.answered])
        #expect(answered.first?.delivery?.grants == [.init(item: "pellet", amount: 5)])
        let logged = try String(contentsOf: logFile, encoding: .utf8)
        #expect(logged.contains(#""granted":true"#) && logged.contains(#""item":"pellet""#), "\(logged)")
        let body = try #require(try loop.store.consumptionRecords(transactionID: loop.transactionID).first).body
        #expect(body.contains(#""consumptionPercentage":80000"#), "four of five pellets fed: \(body)")
    }
}
