import CMicroHTTPD
import Foundation
import Synchronization

/// Keeps slow and numerous clients from holding the server: deadlines for each request's
/// headers and body, a cap on open connections (and optionally on each address's), answered
/// at once.
///
/// libmicrohttpd only closes a connection that stays silent for its idle timeout, so a client
/// dripping one header line every few seconds would hold a connection for ever, and past the
/// connection cap new clients would wait unanswered. The guard hears every connection open and
/// close, moves its deadline as the request advances, and a watchdog thread shuts the socket
/// of any connection past its deadline; libmicrohttpd then closes it.
///
/// A connection's deadline, by what it waits for:
/// - headers (a new connection, or a keep-alive one after its last response): ``Limits/headerTimeout``;
/// - the body: the header timeout as a grace, plus one second per ``Limits/minimumBodyBytesPerSecond``
///   bytes received, so a client must keep that rate on average;
/// - the route's answer and its sending: none here (libmicrohttpd's idle timeout still holds).
final class ConnectionGuard: Sendable {
    /// The guard's limits.
    struct Limits: Sendable {
        /// How long a request's line and headers may take to arrive.
        var headerTimeout: Duration
        /// The slowest average rate a body may arrive at, after the grace of ``headerTimeout``.
        var minimumBodyBytesPerSecond: Int
        /// The most connections open at once.
        var connectionLimit: Int
        /// The most connections open at once from one address, when capped.
        var connectionsPerAddressLimit: Int?
    }

    /// One connection, from open to close; libmicrohttpd keeps it as the socket's context.
    final class Connection: @unchecked Sendable {
        /// The connection's socket, which the watchdog shuts when the deadline passes.
        let socket: Int32
        /// The client's address, as text.
        let address: String
        /// Whether it was refused for a cap: it is answered `503` and closed.
        let isRefused: Bool
        // Guarded by the guard's lock.
        fileprivate var deadline: ContinuousClock.Instant?
        fileprivate var bodyStarted = ContinuousClock.now
        fileprivate var bodyBytes = 0

        fileprivate init(socket: Int32, address: String, isRefused: Bool) {
            self.socket = socket
            self.address = address
            self.isRefused = isRefused
        }
    }

    private struct State: @unchecked Sendable {
        var open: [ObjectIdentifier: Connection] = [:]
        var admittedByAddress: [String: Int] = [:]
        var admitted = 0
        var isRunning = true
    }

    /// The limits in force.
    let limits: Limits
    private let state = Mutex(State())
    /// Connections closed for a deadline, and refused for a cap, since the start.
    let timedOut = Atomic<Int>(0)
    let refused = Atomic<Int>(0)

    /// A guard with `limits`; its watchdog runs until ``stop()``.
    init(limits: Limits) {
        self.limits = limits
        let thread = Thread { [self] in watch() }
        thread.name = "storerules-connection-watchdog"
        thread.start()
    }

    /// Stops the watchdog.
    func stop() {
        state.withLock { $0.isRunning = false }
    }

    // MARK: - Events

    /// A connection opened on `socket` from `address`: admitted under the caps, or refused.
    func opened(socket: Int32, address: UnsafePointer<sockaddr>?) -> Connection {
        let text = Self.text(of: address)
        return state.withLock { state in
            let full = state.admitted >= limits.connectionLimit
                || limits.connectionsPerAddressLimit.map { (state.admittedByAddress[text] ?? 0) >= $0 } == true
            let connection = Connection(socket: socket, address: text, isRefused: full)
            if full {
                // A refused connection gets a moment to read its answer, then is shut.
                connection.deadline = .now + .seconds(1)
                refused.add(1, ordering: .relaxed)
            } else {
                state.admitted += 1
                state.admittedByAddress[text, default: 0] += 1
                connection.deadline = .now + limits.headerTimeout
            }
            state.open[ObjectIdentifier(connection)] = connection
            return connection
        }
    }

    /// The connection closed; libmicrohttpd closes its socket after this returns.
    func closed(_ connection: Connection) {
        state.withLock { state in
            guard state.open.removeValue(forKey: ObjectIdentifier(connection)) != nil, !connection.isRefused else { return }
            state.admitted -= 1
            let left = (state.admittedByAddress[connection.address] ?? 1) - 1
            state.admittedByAddress[connection.address] = left > 0 ? left : nil
        }
    }

    /// A request's headers arrived; its body, if any, follows.
    func headersArrived(_ connection: Connection) {
        state.withLock { _ in
            connection.bodyStarted = .now
            connection.bodyBytes = 0
            connection.deadline = connection.bodyStarted + limits.headerTimeout
        }
    }

    /// `count` more bytes of the body arrived.
    func bodyArrived(_ connection: Connection, count: Int) {
        state.withLock { _ in
            connection.bodyBytes += count
            let earned = Double(connection.bodyBytes) / Double(max(1, limits.minimumBodyBytesPerSecond))
            connection.deadline = connection.bodyStarted + limits.headerTimeout + .seconds(earned)
        }
    }

    /// The request is being answered: no deadline until the response is sent.
    func answering(_ connection: Connection) {
        state.withLock { _ in connection.deadline = nil }
    }

    /// The response was sent: the connection waits for its next request's headers.
    func answered(_ connection: Connection) {
        state.withLock { _ in connection.deadline = .now + limits.headerTimeout }
    }

    // MARK: - The watchdog

    private func watch() {
        while true {
            let running = state.withLock { state -> Bool in
                guard state.isRunning else { return false }
                let now = ContinuousClock.now
                for connection in state.open.values {
                    guard let deadline = connection.deadline, deadline <= now else { continue }
                    connection.deadline = nil
                    // Shut, not closed: the socket stays libmicrohttpd's, which sees it end and
                    // closes it, after `closed` removed it from here under this lock.
                    shutdown(connection.socket, Int32(SHUT_RDWR))
                    if !connection.isRefused { timedOut.add(1, ordering: .relaxed) }
                }
                return true
            }
            guard running else { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    private static func text(of address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "unknown" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var bytes = v4.pointee.sin_addr
                return inet_ntop(AF_INET, &bytes, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? "unknown"
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var bytes = v6.pointee.sin6_addr
                return inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? "unknown"
            }
        default:
            return "unknown"
        }
    }
}
