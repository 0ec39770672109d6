import Foundation

/// An IPv4 or IPv6 socket address to listen on.
struct SocketAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage

    /// Whether it is an IPv6 address.
    var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    /// The address of `host` (an IPv4 or IPv6 literal, optionally in brackets, or `localhost`)
    /// and `port`.
    ///
    /// - Throws: ``HTTPServerError`` for anything else, such as a host name.
    init(host: String, port: UInt16) throws(HTTPServerError) {
        var literal = host == "localhost" ? "127.0.0.1" : host
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            storage = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            storage = .v6(v6)
            return
        }
        throw HTTPServerError(description: "cannot listen on '\(host)': give an IP address such as 127.0.0.1, 0.0.0.0 or ::1")
    }

    /// The size of the address's `sockaddr`.
    var length: socklen_t {
        switch storage {
        case .v4: socklen_t(MemoryLayout<sockaddr_in>.size)
        case .v6: socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
    }

    /// Runs `body` with the address as a `sockaddr`.
    func withPointer<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch storage {
        case .v4(var address):
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .v6(var address):
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }
}
