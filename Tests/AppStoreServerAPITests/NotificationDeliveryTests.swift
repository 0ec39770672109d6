import AppStoreServerAPI
import Foundation
import StoreCore
import StoreHTTP
import StoreService
import StoreTesting
import Synchronization
import Testing

/// A server that records every notification posted to it, answering `200` or, while told to
/// fail, `500`: the receiving end of the local store's deliveries, over real HTTP.
final class RecordingReceiver: HTTPHandler, @unchecked Sendable {
    private let received = Mutex<[String]>([])
    private let failing = Atomic<Bool>(false)

    var payloads: [String] { received.withLock { $0 } }

    func fail(_ fails: Bool) {
        failing.store(fails, ordering: .releasing)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard !failing.load(ordering: .acquiring) else { return HTTPResponse(status: 500) }
        let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: String]
        received.withLock { $0.append(body?["signedPayload"] ?? "") }
        return HTTPResponse(status: 200)
    }

    func refusal(status: Int, kind: String, message: String) -> HTTPResponse { HTTPResponse(status: status) }
    func recordRefusal(method: String?, status: Int) {}
}

@Suite struct NotificationDeliveryTests {
    static func serving(_ receiver: RecordingReceiver) throws -> HTTPServer {
        try HTTPServer(handler: receiver, configuration: HTTPServerConfiguration(port: 0, threads: 2))
    }

    @Test func aNotificationIsPostedAsApplePostsItAndAFailureIsRetriedOnTheStoresClock() async throws {
        let harness = try APIStoreHarness()
        let receiver = RecordingReceiver()
        let server = try Self.serving(receiver)
        defer { server.stop(grace: .zero) }
        try harness.store.setNotificationURL(URL(string: "http://127.0.0.1:\(server.port)/v1/notifications"))
        try harness.buy("pass.premium")
        #expect(receiver.payloads.count == 1)
        let payload = try #require(receiver.payloads.first)
        let first = try harness.store.verifier.verifyAndDecodeNotification(payload)
        #expect(first.notificationType == .subscribed)

        receiver.fail(true)
        try harness.buy("pellet.box")
        _ = try harness.store.advance(by: StoreDuration(iso8601: "PT2H")!)
        receiver.fail(false)
        #expect(receiver.payloads.count == 1, "two attempts failed: at once, and an hour later")
        _ = try harness.store.advance(by: StoreDuration(iso8601: "PT12H")!)
        #expect(receiver.payloads.count == 2, "the third attempt, twelve hours after the second, got through")

        let now = try harness.store.now().millisecondsSince1970
        let items = try await harness.client.notificationHistory(NotificationHistoryRequest(startDate: now - 86_400_000, endDate: now + 1))
            .collect(\.items)
        #expect(items.map { $0.sendAttempts.map { $0.sendAttemptResult ?? "" } }
            == [["SUCCESS"], ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"]])
        let dates = items.last?.sendAttempts.compactMap(\.attemptDate) ?? []
        #expect(dates.count == 3 && dates[1] - dates[0] == 3_600_000 && dates[2] - dates[1] == 12 * 3_600_000)
    }

    @Test func afterFiveRetriesTheStoreGivesUpAndHistoryListsTheFailure() async throws {
        let harness = try APIStoreHarness()
        let receiver = RecordingReceiver()
        let server = try Self.serving(receiver)
        defer { server.stop(grace: .zero) }
        try harness.store.setNotificationURL(URL(string: "http://127.0.0.1:\(server.port)/v1/notifications"))
        try harness.buy("pass.premium")
        receiver.fail(true)
        let box = try harness.buy("pellet.box")
        _ = try harness.store.advance(by: StoreDuration(iso8601: "P7D")!)
        receiver.fail(false)
        _ = try harness.store.advance(by: StoreDuration(iso8601: "P7D")!)
        let now = try harness.store.now().millisecondsSince1970
        let failures = try await harness.client.notificationHistory(NotificationHistoryRequest(
            startDate: now - 30 * 86_400_000, endDate: now + 1, onlyFailures: true)).collect(\.items)
        #expect(failures.count == 1)
        #expect(failures.first?.sendAttempts.count == 6)
        #expect(failures.first?.notification.payload.data.flatMap(\.signedTransactionInfo)
            .flatMap { try? harness.store.verifier.verifyAndDecodeTransaction($0).transactionId } == box)
    }

    @Test func aTestNotificationIsSentAndItsAttemptsReported() async throws {
        let harness = try APIStoreHarness()
        await #expect(throws: AppStoreServerAPIError.api(status: 404, code: APIErrorCode(.serverNotificationUrlNotFound),
                                                         message: "no notification URL is set: store settings --notification-url URL")) {
            _ = try await harness.client.requestTestNotification()
        }
        let receiver = RecordingReceiver()
        let server = try Self.serving(receiver)
        defer { server.stop(grace: .zero) }
        try harness.store.setNotificationURL(URL(string: "http://127.0.0.1:\(server.port)/v1/notifications"))
        let token = try await harness.client.requestTestNotification()
        let status = try await harness.client.testNotificationStatus(token)
        #expect(status.sendAttempts.map(\.sendAttemptResult) == ["SUCCESS"])
        #expect(receiver.payloads == [status.notification.jwsRepresentation])
    }
}
