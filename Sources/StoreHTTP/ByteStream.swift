import Foundation
import StoreCore

/// One connection's bytes, plain or through TLS, read and written without blocking past a
/// deadline.
protocol ByteStream: AnyObject {
    /// Reads at most `buffer.count` bytes into `buffer`; 0 when the client closed its side.
    ///
    /// - Throws: ``StreamFailure`` when `deadline` passes first or the connection fails.
    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant) throws(StreamFailure) -> Int
    /// Writes every byte of `bytes`.
    ///
    /// - Throws: ``StreamFailure`` when `deadline` passes first or the connection fails.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(StreamFailure)
    /// Ends the sending side: the client reads to the end of what was sent.
    func finishWriting()
    /// The client's address, when known.
    var clientAddress: String? { get }
    /// Whether the bytes pass through TLS.
    var isEncrypted: Bool { get }
}

extension ByteStream {
    /// Ends the sending side, then reads and drops what the client still sends, for up to a
    /// second and a megabyte, before the connection closes: closing with unread bytes would
    /// reset the connection, and the client could lose the answer it was sent.
    func lingeringFinish() {
        finishWriting()
        let deadline = ContinuousClock.now + .seconds(1)
        var dropped = 0
        var sink = [UInt8](repeating: 0, count: 16 * 1024)
        while dropped < 1 << 20 {
            let count = sink.withUnsafeMutableBytes { buffer in (try? read(into: buffer, deadline: deadline)) ?? 0 }
            guard count > 0 else { return }
            dropped += count
        }
    }
}

/// Why a connection's bytes stopped.
enum StreamFailure: Error {
    /// The deadline passed.
    case timedOut
    /// The connection failed or was shut.
    case broken
}

/// Waits until `socket` is ready for `events` (`POLLIN`, `POLLOUT`) or `deadline` passes.
func waitForSocket(_ socket: Int32, events: Int16, deadline: ContinuousClock.Instant) throws(StreamFailure) {
    while true {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw .timedOut }
        let milliseconds = Int32(clamping: left.wholeMilliseconds + 1)
        var poller = pollfd(fd: socket, events: events, revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        if ready > 0 {
            if poller.revents & Int16(POLLNVAL) != 0 { throw .broken }
            return
        }
        if ready < 0, errno != EINTR { throw .broken }
    }
}

/// A plain TCP connection.
final class PlainStream: ByteStream {
    let socket: Int32
    let clientAddress: String?
    let isEncrypted = false

    init(socket: Int32) {
        self.socket = socket
        clientAddress = ClientAddress.peer(of: socket)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant) throws(StreamFailure) -> Int {
        while true {
            let count = recv(socket, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count >= 0 { return count }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw .broken }
            try waitForSocket(socket, events: Int16(POLLIN), deadline: deadline)
        }
    }

    func finishWriting() {
        shutdown(socket, Int32(SHUT_WR))
    }

    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(StreamFailure) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw .broken }
            try waitForSocket(socket, events: Int16(POLLOUT), deadline: deadline)
        }
    }
}
