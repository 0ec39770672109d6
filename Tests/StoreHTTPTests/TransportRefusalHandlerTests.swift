import AppStoreServerAPI
import Foundation
import StoreHTTP
import StoreService
import Synchronization
import Testing

/// The transport's own refusals belong to the handler it serves: the local store's App Store
/// Server API refuses in Apple's error body with no request id, and the body cap is the
/// server configuration's, not the service router's.
@Suite struct TransportRefusalHandlerTests {
    /// How many requests a handler answered.
    private final class Count: Sendable {
        let value = Atomic(0)
    }

    /// An App Store Server API that answers `200` to every request and counts them.
    private static func countingHandler(_ answered: Count) -> AppStoreServerAPIHandler {
        AppStoreServerAPIHandler { _, _ in
            answered.value.add(1, ordering: .relaxed)
            return AppStoreServerAPIResponse(status: 200, headers: ["content-type": "application/json"], body: Data("{}".utf8))
        }
    }

    /// What the connection wrote back, as text.
    private static func replay(_ request: String, to handler: any HTTPHandler,
                               configuration: HTTPServerConfiguration = HTTPServerConfiguration()) -> String {
        String(decoding: ReplayedConnection.answers(to: Array(request.utf8), handler: handler, configuration: configuration), as: UTF8.self)
    }

    @Test func anAmbiguousFramingIsRefusedInApplesErrorBodyWithNoRequestID() {
        let answered = Count()
        let reply = Self.replay("POST /inApps/v1/notifications/test HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
                                to: Self.countingHandler(answered))
        #expect(reply.hasPrefix("HTTP/1.1 400 "), "\(reply)")
        #expect(reply.contains(#""errorCode":4000000"#), "\(reply)")
        #expect(!reply.contains("X-Request-Id"), "\(reply)")
        #expect(reply.contains("Connection: close"))
        #expect(answered.value.load(ordering: .relaxed) == 0)
    }

    @Test func theBodyCapIsTheConfigurations() {
        let answered = Count()
        let handler = Self.countingHandler(answered)
        let configuration = HTTPServerConfiguration(maximumBodyBytes: 8)
        let sized = Self.replay("POST /inApps/v1/notifications/test HTTP/1.1\r\nHost: t\r\nContent-Length: 9\r\n\r\n{\"a\":12}\n",
                                to: handler, configuration: configuration)
        #expect(sized.hasPrefix("HTTP/1.1 413 "), "\(sized)")
        #expect(sized.contains("over 8 bytes"), "\(sized)")
        let chunked = Self.replay("POST /inApps/v1/notifications/test HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n{\"a\":12}\n\r\n0\r\n\r\n",
                                  to: handler, configuration: configuration)
        #expect(chunked.hasPrefix("HTTP/1.1 413 "), "\(chunked)")
        #expect(answered.value.load(ordering: .relaxed) == 0)
        let within = Self.replay("POST /inApps/v1/notifications/test HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 8\r\n\r\n{\"a\":12}",
                                 to: handler, configuration: configuration)
        #expect(within.hasPrefix("HTTP/1.1 200 "), "\(within)")
        #expect(answered.value.load(ordering: .relaxed) == 1)
    }
}
