import Foundation
import StoreHTTP
import Testing

/// Slow and numerous clients cannot hold the server: deadlines close them, the caps answer at
/// once, and the server recovers by itself.
@Suite(.serialized) struct SlowClientTests {
    @Test("a client dripping header lines is closed at the header deadline, however often it sends")
    func drippingHeadersAreClosed() throws {
        let server = try TestServer { $0.headerTimeout = .seconds(1) }
        let socket = try RawSocket(port: server.port)
        socket.send("GET /healthz HTTP/1.1\r\n")
        let closedAfter = socket.closedAfter(dripping: "X-Drip: 1\r\n", for: .seconds(5))
        #expect(closedAfter != nil)
        #expect(closedAfter.map { $0 < .seconds(3) } == true)
    }

    @Test("a body slower than the minimum rate is closed once the grace has passed")
    func slowBodiesAreClosed() throws {
        let server = try TestServer {
            $0.headerTimeout = .seconds(1)
            $0.minimumBodyBytesPerSecond = 100
        }
        let socket = try RawSocket(port: server.port)
        socket.send("POST /v1/customers/ana/events HTTP/1.1\r\nHost: t\r\nContent-Length: 10000\r\n\r\n{")
        let closedAfter = socket.closedAfter(dripping: " ", for: .seconds(6))
        #expect(closedAfter != nil)
        #expect(closedAfter.map { $0 < .seconds(4) } == true)
    }

    @Test("past the connection cap a new connection is answered 503 with Retry-After at once; the server recovers by itself")
    func capAnswersAtOnceAndRecovers() throws {
        let server = try TestServer {
            $0.connectionLimit = 8
            $0.headerTimeout = .seconds(3)
        }
        var held: [RawSocket] = []
        for _ in 0..<8 {
            let socket = try RawSocket(port: server.port)
            socket.send("GET /healthz HTTP/1.1\r\n")
            held.append(socket)
        }
        try #require(server.waitForOpenConnections(8), "the server took the eight connections")
        let extra = try RawSocket(port: server.port)
        extra.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        let started = ContinuousClock.now
        let (text, closed) = extra.receive(timeout: .seconds(5))
        let refused = RawResponse(text)
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") != nil)
        #expect(refused.header("Content-Type") == "application/json")
        #expect(refused.header("X-Request-Id") != nil)
        #expect(refused.body.contains("the server holds as many connections"))
        #expect(closed)
        // Well before a held connection's header deadline could free a place for it.
        #expect(ContinuousClock.now - started < .seconds(2))
        for socket in held { socket.send("X-Drip: 1\r\n") }
        var answering = false
        let waited = ContinuousClock.now
        while !answering, ContinuousClock.now - waited < .seconds(20) {
            answering = try server.isAnswering()
            if !answering { Thread.sleep(forTimeInterval: 0.2) }
        }
        #expect(answering, "once the slow sockets pass their deadline, the server answers again")
        withExtendedLifetime(held) {}
    }

    @Test("the per-address cap, when set, refuses one address's extra connection")
    func perAddressCap() throws {
        let server = try TestServer { $0.connectionsPerAddressLimit = 2 }
        let first = try RawSocket(port: server.port)
        let second = try RawSocket(port: server.port)
        try #require(server.waitForOpenConnections(2), "the server took the first two connections")
        let third = try RawSocket(port: server.port)
        third.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        let refused = RawResponse(third.receive(timeout: .seconds(5)).text)
        #expect(refused.status == 503)
        #expect(refused.body.contains("this address holds as many connections"))
        withExtendedLifetime((first, second)) {}
        first.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(RawResponse(first.receive(timeout: .seconds(5)).text).status == 200)
    }

    @Test("a keep-alive connection answers request after request, each within the header deadline")
    func keepAliveServesOn() throws {
        let server = try TestServer { $0.headerTimeout = .seconds(1) }
        let socket = try RawSocket(port: server.port)
        for _ in 0..<3 {
            socket.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            let (text, closed) = socket.receiveResponse()
            #expect(RawResponse(text).status == 200)
            #expect(!closed)
            Thread.sleep(forTimeInterval: 0.2)
        }
    }
}
