import Foundation
import StoreCore
import StoreHTTP
import StoreService
import Synchronization

/// A receiver of outgoing events on a real HTTP server, answering each delivery as a script says
/// and keeping what it received, in the order it arrived.
final class WebhookReceiver: Sendable {
    /// How the receiver answers one delivery.
    enum Answer: Sendable {
        case accept
        case status(Int)
        case redirect
        case slow(seconds: Double)
    }

    /// One delivery as it arrived.
    struct Delivery: Sendable, Codable {
        let id: String
        let timestamp: String
        let signature: String
        let body: String
        let accepted: Bool
    }

    private let handler: Handler
    private let server: HTTPServer

    /// A receiver on a free loopback port answering attempt number N (from 0) as `script` says.
    init(script: @escaping @Sendable (_ attempt: Int) -> Answer = { _ in .accept }) throws {
        handler = Handler(script: script)
        server = try HTTPServer(handler: handler, configuration: HTTPServerConfiguration(port: 0, threads: 8))
        handler.port.withLock { $0 = server.port }
    }

    var url: URL { URL(string: "http://127.0.0.1:\(server.port)/hooks")! }

    /// Every delivery received, in arrival order.
    var deliveries: [Delivery] { handler.received.withLock { $0 } }

    /// The deliveries the receiver accepted, in arrival order.
    var accepted: [Delivery] { deliveries.filter(\.accepted) }

    func stop() {
        server.stop(grace: .seconds(1))
    }
}

/// The receiver's answers and records, as its server calls them.
private final class Handler: HTTPHandler {
    let script: @Sendable (_ attempt: Int) -> WebhookReceiver.Answer
    let received = Mutex<[WebhookReceiver.Delivery]>([])
    let port = Mutex<UInt16>(0)

    init(script: @escaping @Sendable (_ attempt: Int) -> WebhookReceiver.Answer) {
        self.script = script
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let attempt = received.withLock { $0.count }
        let answer = script(attempt)
        if case .slow(let seconds) = answer { Thread.sleep(forTimeInterval: seconds) }
        let accepted = switch answer {
        case .accept, .slow: true
        case .status, .redirect: false
        }
        received.withLock {
            $0.append(WebhookReceiver.Delivery(id: request.headers["webhook-id"] ?? "", timestamp: request.headers["webhook-timestamp"] ?? "",
                               signature: request.headers["webhook-signature"] ?? "",
                               body: String(decoding: request.body, as: UTF8.self), accepted: accepted))
        }
        switch answer {
        case .accept: return HTTPResponse(status: 204)
        case .status(let status): return HTTPResponse(status: status, headers: status == 429 ? ["Retry-After": "0"] : [:])
        case .redirect: return HTTPResponse(status: 302, headers: ["Location": "http://127.0.0.1:\(port.withLock { $0 })/elsewhere"])
        case .slow: return HTTPResponse(status: 200)
        }
    }

    func refusal(status: Int, kind: String, message: String) -> HTTPResponse {
        HTTPResponse(status: status)
    }

    func recordRefusal(method: String?, status: Int) {}

    func servesTLS(certificate: X509Certificate) {}
}
