import Foundation

/// A TCP client on loopback that writes exactly the bytes it is given, as an attacker's or a
/// broken client's would be, and reads what comes back.
final class RawSocket {
    let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw RawSocketError(description: "cannot connect to port \(port): errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Sends `text`'s bytes; false when the connection no longer takes them.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// What the server sends until it closes the connection or `timeout` passes, and whether
    /// it closed it.
    func receive(timeout: Duration = .seconds(5)) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&poller, 1, milliseconds) > 0 else { break }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// The next response the server sends — its head, and as many body bytes as its
    /// `Content-Length` says (a `1xx` has none) — waiting up to `timeout` for it, and whether the
    /// server closed the connection before it was whole. It returns as soon as the response is
    /// whole, so a connection kept alive is read without waiting for the time to pass.
    func receiveResponse(timeout: Duration = .seconds(10)) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var byte = [UInt8](repeating: 0, count: 1)
        while ContinuousClock.now < deadline, !Self.isWholeResponse(received) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&poller, 1, milliseconds) > 0 else { break }
            // One byte at a time, so nothing of a pipelined next response is taken.
            guard recv(descriptor, &byte, 1, 0) == 1 else { return (String(decoding: received, as: UTF8.self), true) }
            received.append(byte[0])
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// Whether `bytes` hold a whole response: a head, and the body its `Content-Length` gives.
    private static func isWholeResponse(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = RawResponse(String(text[..<end.lowerBound]))
        if (100..<200).contains(head.status) { return true }
        let length = Int(head.header("Content-Length") ?? "0") ?? 0
        return text[end.upperBound...].utf8.count >= length
    }

    /// Sends `drip` every 300 ms until the server closes the connection or `limit` passes;
    /// how long the server took to close it, nil when it did not.
    func closedAfter(dripping drip: String, for limit: Duration) -> Duration? {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < limit {
            send(drip)
            if receive(timeout: .milliseconds(300)).closed { return ContinuousClock.now - started }
        }
        return nil
    }
}

struct RawSocketError: Error, CustomStringConvertible {
    let description: String
}

/// One HTTP response as read off a socket.
struct RawResponse {
    let statusLine: String
    let headers: [(String, String)]
    let body: String

    init(_ text: String) {
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first?.components(separatedBy: "\r\n") ?? []
        statusLine = head.first ?? ""
        headers = head.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
    }

    var status: Int { Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0 }

    func header(_ name: String) -> String? { headers.first { $0.0 == name.lowercased() }?.1 }
}
