import Foundation
import Synchronization

/// A TCP socket bound to an address and listening, made before anything else starts so that a
/// taken port or a forbidden address is said first, with the system's reason.
public final class ListeningSocket: @unchecked Sendable {
    /// The socket; an ``HTTPServer`` given it accepts on it and closes it when it stops.
    let descriptor: Int32
    /// The port bound (the one the system chose, when port 0 was asked for).
    public let port: UInt16
    private let closed = Mutex(false)

    /// Binds `host:port` and listens.
    ///
    /// - Throws: ``HTTPServerError`` saying why: the address is in use, binding it needs a
    ///   privilege, it is not this machine's, or it is not an IP address.
    public init(host: String, port: UInt16) throws(HTTPServerError) {
        let address = try SocketAddress(host: host, port: port)
        let descriptor = socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw HTTPServerError(description: "cannot make a socket: \(String(cString: strerror(errno)))")
        }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 { setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) }
        let bound = address.withPointer { bind(descriptor, $0, address.length) }
        guard bound == 0, listen(descriptor, SOMAXCONN) == 0 else {
            let code = errno
            Foundation.close(descriptor)
            throw HTTPServerError(description: "cannot listen on \(host):\(port): \(Self.reason(code))")
        }
        var local = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.port = withUnsafePointer(to: &local) { pointer in
            address.isIPv6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Stops listening; safe to call more than once.
    func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            Foundation.close(descriptor)
        }
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case EADDRINUSE: "the address is in use: another process listens on that port"
        case EACCES: "permission denied: ports below 1024 need privileges"
        case EADDRNOTAVAIL: "the address is not one of this machine's"
        default: String(cString: strerror(code))
        }
    }
}
