import Foundation
import Testing

/// Requests whose body two parsers could frame two ways are refused with one JSON error and
/// their connection closed, so nothing smuggled after them is ever answered.
@Suite struct RequestFramingTransportTests {
    @Test("ambiguous framing is one JSON error and a closed connection; the pipelined request after it is never answered",
          arguments: [
              ("Content-Length: 5\r\nContent-Length: 6\r\n", 400),
              ("Content-Length: 6\r\nContent-Length: 6\r\n", 400),
              ("Content-Length: 6\r\nTransfer-Encoding: chunked\r\n", 400),
              ("Transfer-Encoding: gzip\r\n", 501),
              ("Transfer-Encoding: gzip, chunked\r\n", 501),
              ("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", 400),
              ("Content-Length: +6\r\n", 400),
              ("Content-Length: -1\r\n", 400),
              ("Content-Length: 99999999999999999999999\r\n", 400),
          ])
    func ambiguousFramingIsRefused(headers: String, status: Int) throws {
        let server = try TestServer()
        let smuggled = "GET /v1/customers/victim/storefront HTTP/1.1\r\nHost: t\r\n\r\n"
        let request = "POST /v1/customers/ana/events HTTP/1.1\r\nHost: t\r\n\(headers)\r\n0\r\n\r\n" + smuggled
        let (response, closed) = try server.exchange(request)
        #expect(response.status == status, "\(headers)")
        #expect(response.header("Content-Type") == "application/json", "\(headers)")
        #expect(response.body.hasPrefix(#"{"error":{"kind":"#), "\(headers)")
        #expect(closed, "the connection is closed after the refusal")
        #expect(!response.body.contains("customer_id"), "the smuggled request was not answered")
        #expect(try server.isAnswering())
    }

    @Test("a body framed once by Content-Length, and one chunked, are read as one request each")
    func plainFramingIsServed() throws {
        let server = try TestServer()
        let body = #"{"name": "paywall_shown"}"#
        let sized = try server.exchange(
            "POST /v1/customers/ana/events HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(sized.response.status == 200)
        let hex = String(body.utf8.count, radix: 16)
        let chunked = try server.exchange(
            "POST /v1/customers/ana/events HTTP/1.1\r\nHost: t\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n\(hex)\r\n\(body)\r\n0\r\n\r\n")
        #expect(chunked.response.status == 200)
        #expect(chunked.response.body.contains(#""count":2"#))
    }

    @Test("a HEAD of a GET route is answered with the GET's status and headers and no body")
    func headIsAnswered() throws {
        let server = try TestServer()
        for path in ["/healthz", "/readyz", "/v1/customers/ana/storefront"] {
            let (response, _) = try server.exchange("HEAD \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(response.status == 200, "\(path)")
            #expect(response.header("Content-Type") == "application/json", "\(path)")
            #expect(response.body.isEmpty, "\(path)")
        }
    }

    @Test("a path whose escapes hide a NUL or bytes that are not UTF-8 is 400, never another customer's data")
    func strictPaths() throws {
        let server = try TestServer()
        #expect(try server.exchange("PUT /v1/customers/carol HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
            .response.status == 200)
        for path in ["/v1/customers/carol%00attacker", "/v1/customers/%ff", "/v1/customers/carol%2F..", "/v1/customers/carol%"] {
            let (response, _) = try server.exchange("GET \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(response.status == 400, "\(path)")
            #expect(!response.body.contains(#""customer":"carol""#), "\(path)")
        }
    }

    @Test("what the transport refuses itself is the JSON error too, counted, never an HTML page", arguments: [
        ("GET /healthz HTTP/3.0\r\nHost: t\r\n\r\n", 505),
        ("GET /healthz HTTP/1.1\r\n\r\n", 400),
        ("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET  /healthz HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        ("GET healthz HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        ("GET /healthz HTTP/1.1\nHost: t\n\n", 400),
        ("GET /healthz HTTP/1.1\r\nHost: t\r\nBad Name: x\r\n\r\n", 400),
        ("GET /healthz HTTP/1.1\r\nHost: t\r\nX: a\r\n folded\r\n\r\n", 400),
        ("GET /healthz HTTP/1.1\r\nHost: t\r\nX: a\u{1}b\r\n\r\n", 400),
        ("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: t\r\n\r\n", 414),
        ("GET /healthz HTTP/1.1\r\nHost: t\r\n\((0..<101).map { "X-\($0): y\r\n" }.joined())\r\n", 431),
        ("GET /healthz HTTP/1.1\r\nHost: t\r\nX: \(String(repeating: "y", count: 70_000))\r\n\r\n", 431),
        ("POST /v1/customers/ana/events HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST /v1/customers/ana/events HTTP/1.1\r\nHost: t\r\nContent-Length: 70000\r\n\r\n", 413),
        ("POST /v1/customers/ana/events HTTP/1.1\r\nHost: t\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}", 417),
        ("GET /healthz HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n", 400),
    ])
    func transportRefusalsAreJSON(request: String, status: Int) throws {
        let server = try TestServer()
        let (response, closed) = try server.exchange(request)
        #expect(response.status == status, "\(request.prefix(60))")
        #expect(response.header("Content-Type") == "application/json", "\(request.prefix(60))")
        #expect(response.body.hasPrefix(#"{"error":{"kind":"#), "\(request.prefix(60)): \(response.body.prefix(200))")
        #expect(!response.body.contains("<html"))
        #expect(response.header("X-Request-Id") != nil)
        #expect(closed)
        let metrics = server.router.metrics.exposition(unfinishedTransactions: nil, policyVersion: "v")
        #expect(metrics.contains("status=\"\(status)\""), "counted in the metrics")
        #expect(try server.isAnswering())
    }

    @Test("a client that says Expect: 100-continue is told to go on and its body is read")
    func expectContinue() throws {
        let server = try TestServer()
        let socket = try RawSocket(port: server.port)
        let body = #"{"name": "paywall_shown"}"#
        socket.send("POST /v1/customers/ana/events HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
        let interim = socket.receiveResponse().text
        #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n\r\n"), "\(interim)")
        socket.send(body)
        let answer = RawResponse(socket.receiveResponse().text)
        #expect(answer.status == 200, "\(answer.statusLine) \(answer.body)")
    }

    @Test("a refusal the transport makes after reading the headers echoes the request's own id")
    func refusalsEchoTheRequestID() throws {
        let server = try TestServer()
        for framing in ["Content-Length: 70000\r\n", "Transfer-Encoding: gzip\r\n", "Content-Length: 1\r\nContent-Length: 2\r\n"] {
            let (response, _) = try server.exchange("POST /v1/customers/ana/events HTTP/1.1\r\nHost: t\r\nX-Request-Id: trace-7\r\n\(framing)\r\n")
            #expect(response.header("X-Request-Id") == "trace-7", "\(framing)")
        }
    }
}
