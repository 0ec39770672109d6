import CMicroHTTPD
import Foundation
import StoreService
import Synchronization

/// A ``StoreService/HTTPRouter`` served over HTTP/1.1 (keep-alive, optionally TLS) by
/// libmicrohttpd's internal thread pool.
///
/// libmicrohttpd parses HTTP, in its strict mode; this class refuses what it lets through
/// that could frame a request two ways (``RequestFraming``), gathers each request's body (at
/// most ``StoreService/HTTPRouter/maximumBodyBytes``: a larger `Content-Length` is answered
/// `413` before the body is read; a larger chunked body is read on and answered `413` when it
/// ends, or its connection closed once it passes 16 times the limit), hands the request to the
/// router on the pool's thread, and queues the router's response. A ``ConnectionGuard`` holds
/// every connection to its deadlines and the caps.
public final class HTTPServer: @unchecked Sendable {
    /// The router answering every request.
    public let router: HTTPRouter
    /// Where the server listens.
    public let configuration: HTTPServerConfiguration
    /// The port it listens on (the one chosen, when the configuration asked for port 0).
    public private(set) var port: UInt16 = 0

    /// libmicrohttpd's daemon, which its own threads use.
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// The daemon, until ``stop(grace:)``; guarded so a stop from a signal handler and one from
    /// `deinit` do not race.
    private let daemon = Mutex<Daemon?>(nil)
    /// The memory libmicrohttpd keeps per connection for a request's line, headers and read
    /// buffer; bodies are gathered apart from it, so 64 KiB leaves room for long headers while
    /// 256 connections hold at most 16 MiB of it.
    static let connectionMemoryBytes = 64 * 1024

    /// Requests begun and not yet completed; idle keep-alive connections hold none.
    private let requestsInFlight = Atomic<Int>(0)
    /// Whether ``stop(grace:)`` began: every response then closes its connection, so keep-alive
    /// clients do not send more requests into the shutdown.
    private let isStopping = Atomic<Bool>(false)
    /// The TLS PEM text as C strings, which libmicrohttpd reads while it runs.
    private let tlsStrings: [UnsafeMutablePointer<CChar>]
    /// Deadlines and caps for every connection.
    let connectionGuard: ConnectionGuard

    /// Starts serving on `listening`, or on a socket bound to the configuration's address
    /// when none is given; the server closes the socket when it stops.
    ///
    /// - Throws: ``HTTPServerError`` when the address cannot be read or bound (with the
    ///   system's reason), TLS is asked for but the library lacks it, or the TLS certificate or
    ///   key cannot be used.
    public init(router: HTTPRouter, configuration: HTTPServerConfiguration, listening: ListeningSocket? = nil) throws(HTTPServerError) {
        self.router = router
        self.configuration = configuration
        guard configuration.threads >= 1 else { throw HTTPServerError(description: "a server needs at least one thread") }
        let socket: ListeningSocket
        if let listening {
            socket = listening
        } else {
            socket = try ListeningSocket(host: configuration.host, port: configuration.port)
        }
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var tlsStrings: [UnsafeMutablePointer<CChar>] = []
        if let tls = configuration.tls {
            guard MHD_is_feature_supported(MHD_FEATURE.FEATURE_TLS) == MHD_Result.YES else {
                throw HTTPServerError(description: "this libmicrohttpd was built without TLS")
            }
            tlsStrings = [strdup(tls.keyPEM), strdup(tls.certificatePEM)]
        }
        self.tlsStrings = tlsStrings
        connectionGuard = ConnectionGuard(limits: ConnectionGuard.Limits(
            headerTimeout: configuration.headerTimeout, minimumBodyBytesPerSecond: configuration.minimumBodyBytesPerSecond,
            connectionLimit: max(1, configuration.connectionLimit),
            connectionsPerAddressLimit: configuration.connectionsPerAddressLimit))
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = storerules_mhd_start(
            flags, socket.descriptor, HTTPServer.accessHandler, context, HTTPServer.completionHandler, HTTPServer.connectionHandler,
            // libmicrohttpd's own cap would stop accepting, leaving new clients waiting: it
            // is set past the guard's, which answers connections over its cap at once.
            UInt32(configuration.threads), UInt32(max(1, configuration.connectionLimit) * 2 + 16 * configuration.threads),
            UInt32(max(1, configuration.idleTimeoutSeconds)), Self.connectionMemoryBytes,
            tlsStrings.first, tlsStrings.dropFirst().first)
        // On failure `deinit` still runs, since every property is set, and frees the TLS strings;
        // the socket, not handed over, closes with `listening`.
        guard let started else {
            throw HTTPServerError(description: configuration.tls == nil
                ? "cannot serve on \(configuration.host):\(socket.port): libmicrohttpd did not start (\(String(cString: strerror(errno))))"
                : "cannot serve HTTPS: the TLS certificate or key cannot be used (a PEM certificate chain and its private key are needed)")
        }
        _ = socket.handOver()
        port = storerules_mhd_bound_port(started)
        let running = Daemon(pointer: started)
        daemon.withLock { $0 = running }
    }

    deinit {
        stop(grace: .zero)
        connectionGuard.stop()
        tlsStrings.forEach { free($0) }
    }

    /// Stops accepting connections, lets the requests in flight finish for up to `grace` (each
    /// answer closing its connection), then closes every connection and the thread pool. Safe to
    /// call more than once.
    public func stop(grace: Duration = .seconds(10)) {
        guard let running = daemon.withLock({ daemon -> Daemon? in
            defer { daemon = nil }
            return daemon
        })?.pointer else { return }
        isStopping.store(true, ordering: .releasing)
        let listener = MHD_quiesce_daemon(running)
        let deadline = ContinuousClock.now + grace
        while requestsInFlight.load(ordering: .acquiring) > 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        MHD_stop_daemon(running)
        connectionGuard.stop()
        // libmicrohttpd's threads may use the listening socket until the daemon has stopped.
        if listener >= 0 { close(listener) }
    }

    /// How many connections are open now.
    public var openConnections: Int {
        daemon.withLock { daemon in daemon.map { Int(storerules_mhd_open_connections($0.pointer)) } ?? 0 }
    }

    // MARK: - libmicrohttpd's callbacks

    /// Called for each request: first with its headers (the body state is made), then with each
    /// piece of the body, then once more with none, when the response is queued.
    private static let accessHandler: MHD_AccessHandlerCallback = {
        context, connection, url, method, _, uploadData, uploadDataSize, requestContext in
        guard let context, let connection, let requestContext, let uploadDataSize else { return MHD_Result.NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        let guarded = storerules_mhd_socket_context(connection).map {
            Unmanaged<ConnectionGuard.Connection>.fromOpaque($0).takeUnretainedValue()
        }
        if guarded?.isRefused == true { return MHD_Result.NO }
        guard let state = requestContext.pointee else {
            let body = RequestBody()
            requestContext.pointee = Unmanaged.passRetained(body).toOpaque()
            server.requestsInFlight.add(1, ordering: .acquiringAndReleasing)
            if let guarded { server.connectionGuard.headersArrived(guarded) }
            let framing = RequestFraming(
                contentLengths: ConnectionValues.every(connection, kind: MHD_ValueKind.HEADER_KIND, name: "Content-Length"),
                transferEncodings: ConnectionValues.every(connection, kind: MHD_ValueKind.HEADER_KIND, name: "Transfer-Encoding"))
            if let refusal = framing.refusal {
                body.isRefused = true
                return queue(server.counted(refusal, method: method), on: connection, closing: true)
            }
            if let declared = framing.contentLength, declared > HTTPRouter.maximumBodyBytes {
                body.isRefused = true
                return queue(server.counted(tooLarge(), method: method), on: connection, closing: true)
            }
            return MHD_Result.YES
        }
        let body = Unmanaged<RequestBody>.fromOpaque(state).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if let guarded { server.connectionGuard.bodyArrived(guarded, count: size) }
            guard !body.isRefused else {
                body.droppedBytes += size
                // A client streaming far past the limit is cut off rather than read to the end.
                return body.droppedBytes > 16 * HTTPRouter.maximumBodyBytes ? MHD_Result.NO : MHD_Result.YES
            }
            if body.data.count + size > HTTPRouter.maximumBodyBytes {
                body.isRefused = true
                body.isTooLarge = true
                body.droppedBytes = body.data.count + size
                body.data = Data()
            } else if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { body.data.append($0, count: size) }
            }
            return MHD_Result.YES
        }
        if let guarded { server.connectionGuard.answering(guarded) }
        if body.isTooLarge { return queue(server.counted(tooLarge(), method: method), on: connection, closing: true) }
        if body.isRefused { return MHD_Result.YES }
        guard let path = url.map(String.init(validatingCString:)) ?? "/", let method = method.map(String.init(validatingCString:)) ?? "" else {
            let refusal = HTTPResponse.error(400, kind: "bad_request", message: "the request line holds bytes that are not UTF-8")
            return queue(server.counted(refusal, method: nil), on: connection, closing: true)
        }
        let request = HTTPRequest(
            method: method,
            path: path,
            query: ConnectionValues.all(connection, kind: MHD_ValueKind.GET_ARGUMENT_KIND),
            headers: ConnectionValues.all(connection, kind: MHD_ValueKind.HEADER_KIND),
            body: body.data)
        let response = server.router.respond(to: request)
        return queue(response, on: connection, closing: server.isStopping.load(ordering: .acquiring))
    }

    /// Frees a request's body state once its connection is done with it; the connection then
    /// waits for its next request.
    private static let completionHandler: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
        guard let context, let requestContext, let state = requestContext.pointee else { return }
        Unmanaged<RequestBody>.fromOpaque(state).release()
        requestContext.pointee = nil
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        server.requestsInFlight.subtract(1, ordering: .acquiringAndReleasing)
        if let connection, let guarded = storerules_mhd_socket_context(connection) {
            server.connectionGuard.answered(Unmanaged<ConnectionGuard.Connection>.fromOpaque(guarded).takeUnretainedValue())
        }
    }

    /// Hears each connection open, where the guard admits or refuses it, and close.
    private static let connectionHandler: MHD_NotifyConnectionCallback = { context, connection, socketContext, event in
        guard let context, let connection, let socketContext else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        switch event {
        case MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED:
            let socket = storerules_mhd_connection_socket(connection)
            let guarded = server.connectionGuard.opened(socket: socket, address: storerules_mhd_client_address(connection))
            socketContext.pointee = Unmanaged.passRetained(guarded).toOpaque()
            if guarded.isRefused { server.refuse(socket: socket) }
        case MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_CLOSED:
            guard let kept = socketContext.pointee else { return }
            socketContext.pointee = nil
            let guarded = Unmanaged<ConnectionGuard.Connection>.fromOpaque(kept)
            server.connectionGuard.closed(guarded.takeUnretainedValue())
            guarded.release()
        default:
            break
        }
    }

    /// Answers a connection over a cap `503` with `Retry-After`, written straight to its socket
    /// before libmicrohttpd reads from it (on plain HTTP; a TLS connection is only closed), and
    /// ends the sending side; the guard shuts the rest a moment later.
    private func refuse(socket: Int32) {
        router.metrics.recordRequest(route: "unmatched", method: "other", status: 503, seconds: 0)
        if configuration.tls == nil {
            let response = HTTPResponse.error(503, kind: "overloaded", message: "the server holds as many connections as it may; try again")
            var text = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
                + "Connection: close\r\nContent-Length: \(response.body.count)\r\n\r\n"
            text += String(decoding: response.body, as: UTF8.self)
            _ = text.withCString { send(socket, $0, strlen($0), Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        }
        shutdown(socket, Int32(SHUT_WR))
    }

    /// `response`, counted in the router's metrics as an answer the transport made itself.
    private func counted(_ response: HTTPResponse, method: UnsafePointer<CChar>?) -> HTTPResponse {
        let name = method.flatMap(String.init(validatingCString:)) ?? "other"
        router.metrics.recordRequest(route: "unmatched", method: HTTPRouter.methodLabel(name), status: response.status, seconds: 0)
        return response
    }

    private static func tooLarge() -> HTTPResponse {
        .error(413, kind: "too_large", message: "the body is over \(HTTPRouter.maximumBodyBytes) bytes")
    }

    /// Hands `response` to libmicrohttpd, which copies it.
    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer, closing: Bool) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let made else { return MHD_Result.NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(made, name, value)
        }
        if closing { _ = MHD_add_response_header(made, "Connection", "close") }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}

/// The body of one request, as it arrives.
private final class RequestBody {
    var data = Data()
    /// Whether the request was answered before its body was read (too large, or framed two
    /// ways): what more arrives is dropped.
    var isRefused = false
    /// Whether the body turned out over the limit as it arrived.
    var isTooLarge = false
    var droppedBytes = 0
}
