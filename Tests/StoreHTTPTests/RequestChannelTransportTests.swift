import Foundation
import StoreHTTP
import StoreService
import Testing

/// The transport tells each request where it came from and whether through TLS, which the
/// operator page's sign-in depends on.
@Suite struct RequestChannelTransportTests {
    struct EchoHandler: HTTPHandler {
        func respond(to request: HTTPRequest) -> HTTPResponse {
            .text(200, "\(request.clientAddress ?? "unknown") \(request.isEncrypted ? "tls" : "plain") \(request.comesPrivately)")
        }
        func refusal(status: Int, kind: String, message: String) -> HTTPResponse { .text(status, message) }
        func recordRefusal(method: String?, status: Int) {}
    }

    @Test func aRequestOverLoopbackCarriesItsAddressAndComesPrivately() throws {
        let server = try HTTPServer(handler: EchoHandler(), configuration: HTTPServerConfiguration(port: 0, threads: 1))
        defer { server.stop(grace: .zero) }
        let socket = try RawSocket(port: server.port)
        socket.send("GET /admin HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let response = RawResponse(socket.receive(timeout: .seconds(10)).text)
        #expect(response.status == 200)
        #expect(response.body == "127.0.0.1 plain true")
    }
}
