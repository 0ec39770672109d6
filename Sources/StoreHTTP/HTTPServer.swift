import AppStoreServerAPI
import Foundation
import StoreCore
import StoreService
import Synchronization

/// An ``HTTPHandler`` (the service's ``StoreService/HTTPRouter``, or another) served over
/// HTTP/1.1 (keep-alive, pipelining, optionally TLS through OpenSSL): an accepting thread, and a
/// thread per connection that reads each request strictly, within its deadlines and the
/// configuration's body cap (``HTTPConnection``).
///
/// Every answer is the handler's: its response to a request, or its refusal, in its own form
/// (the router's JSON error, Apple's error body for the local store's App Store Server API), for
/// a request the transport refuses itself. Requests are answered at most
/// ``HTTPServerConfiguration/threads`` at a time, however many connections are open; a request
/// the handler answers from memory (the router's `/healthz`) is answered on its connection's
/// thread without waiting for one.
/// Connections over the caps are answered `503` with `Retry-After` at once and closed.
public final class HTTPServer: @unchecked Sendable {
    /// What answers every request.
    public let handler: any HTTPHandler
    /// Where and how the server listens.
    public let configuration: HTTPServerConfiguration
    /// The port it listens on (the one chosen, when the configuration asked for port 0).
    public let port: UInt16

    private let listening: ListeningSocket
    private let tls: TLSContext?
    private let connections: ConnectionRegistry
    /// Routes running at once, at most `threads`.
    private let routeSlots: DispatchSemaphore
    /// Requests being answered now.
    private let requestsInFlight = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let acceptorDone = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    /// Starts serving on `listening`, or on a socket bound to the configuration's address when
    /// none is given; the server closes the socket when it stops.
    ///
    /// - Throws: ``HTTPServerError`` when the address cannot be read or bound (with the
    ///   system's reason), or the TLS certificate or key cannot be used.
    public init(handler: any HTTPHandler, configuration: HTTPServerConfiguration, listening: ListeningSocket? = nil) throws(HTTPServerError) {
        guard configuration.threads >= 1 else { throw HTTPServerError(description: "a server needs at least one thread") }
        self.handler = handler
        self.configuration = configuration
        if let listening {
            self.listening = listening
        } else {
            self.listening = try ListeningSocket(host: configuration.host, port: configuration.port)
        }
        tls = try configuration.tls.map { credentials throws(HTTPServerError) in try TLSContext(credentials) }
        if let credentials = configuration.tls, let leaf = try? X509Certificate(pemRepresentation: credentials.certificatePEM) {
            handler.servesTLS(certificate: leaf)
        }
        port = self.listening.port
        connections = ConnectionRegistry(connectionLimit: configuration.connectionLimit,
                                         perAddressLimit: configuration.connectionsPerAddressLimit)
        routeSlots = DispatchSemaphore(value: configuration.threads)
        let acceptor = Thread { [self] in acceptConnections() }
        acceptor.name = "storerules-http-accept"
        acceptor.start()
    }

    deinit {
        stop(grace: .zero)
    }

    /// Whether ``stop(grace:)`` began: every answer then closes its connection.
    var isStopping: Bool {
        stopping.load(ordering: .acquiring)
    }

    /// Stops accepting connections, lets the requests in flight finish for up to `grace` (each
    /// answer closing its connection), then closes every connection. Safe to call more than once.
    public func stop(grace: Duration = .seconds(10)) {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        stopping.store(true, ordering: .releasing)
        acceptorDone.wait()
        let deadline = ContinuousClock.now + grace
        while requestsInFlight.load(ordering: .acquiring) > 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        connections.shutAll()
        let closing = ContinuousClock.now + .seconds(2)
        while connections.count > 0, ContinuousClock.now < closing {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// How many connections are open now.
    public var openConnections: Int {
        connections.count
    }

    /// How many requests are being answered now: running in a route slot, waiting for one, or
    /// answered without one.
    public var requestsBeingAnswered: Int {
        requestsInFlight.load(ordering: .acquiring)
    }

    /// The handler's answer to `request`, with at most `threads` routes running at once; a
    /// request the handler answers from memory (`/healthz`) takes no route slot, so it is
    /// answered while every slot waits on the ledger.
    func answer(_ request: HTTPRequest) -> HTTPResponse {
        requestsInFlight.add(1, ordering: .acquiringAndReleasing)
        defer { requestsInFlight.subtract(1, ordering: .acquiringAndReleasing) }
        guard !handler.answersFromMemory(request) else { return handler.respond(to: request) }
        routeSlots.wait()
        defer { routeSlots.signal() }
        return handler.respond(to: request)
    }

    // MARK: - Accepting

    private func acceptConnections() {
        defer {
            listening.close()
            acceptorDone.signal()
        }
        let listener = listening.descriptor
        while !isStopping {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let socket = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listener, $0, &length)
                }
            }
            guard socket >= 0 else {
                // Out of descriptors or memory: the waiting connection stays queued for a moment.
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { Thread.sleep(forTimeInterval: 0.05) }
                continue
            }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
            var on: Int32 = 1
            setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            let client = ClientAddress.text(of: address)
            switch connections.admit(socket, from: client) {
            case .admitted:
                break
            case .overConnectionLimit:
                handler.connectionRefused(cap: "server", client: client)
                refuseOverCap(socket, message: "the server holds as many connections as it may; try again")
                continue
            case .overAddressLimit:
                handler.connectionRefused(cap: "address", client: client)
                refuseOverCap(socket, message: "this address holds as many connections as one address may; try again")
                continue
            }
            let thread = Thread { [self] in
                serve(socket, from: client)
            }
            thread.name = "storerules-http-connection"
            thread.start()
        }
    }

    private func serve(_ socket: Int32, from client: String) {
        defer { connections.close(socket, from: client) }
        let stream: ByteStream
        if let tls {
            guard let secure = TLSStream(socket: socket, context: tls) else { return }
            do {
                try secure.handshake(deadline: .now + configuration.headerTimeout)
            } catch {
                return
            }
            stream = secure
        } else {
            stream = PlainStream(socket: socket)
        }
        HTTPConnection(stream: stream, server: self).serve()
    }

    /// Answers a connection over a cap `503` with `Retry-After` (on plain HTTP; a TLS one is only
    /// closed) and closes it, reading what it sent first so the close does not reset the answer.
    private func refuseOverCap(_ socket: Int32, message: String) {
        let response = handler.refusal(status: 503, kind: "overloaded", message: message)
        handler.recordRefusal(method: nil, status: 503)
        if tls == nil {
            var text = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
            if let id = handler.refusalRequestID(header: nil) { text += "X-Request-Id: \(id)\r\n" }
            text += "Date: \(HTTPDateHeader.now)\r\n"
            text += "Connection: close\r\nContent-Length: \(response.body.count)\r\n\r\n"
            let bytes = Array(text.utf8) + response.body
            _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            var drain = [UInt8](repeating: 0, count: 4096)
            _ = recv(socket, &drain, drain.count, Int32(MSG_DONTWAIT))
            shutdown(socket, Int32(SHUT_WR))
        }
        close(socket)
    }
}
