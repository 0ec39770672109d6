import CLibPQ
import Foundation

extension PostgresConnection {
    /// A `NOTIFY` the server delivered to a connection that listens on its channel.
    public struct Notification: Sendable, Equatable {
        /// The channel.
        public let channel: String
        /// The payload (empty when the notifier sent none).
        public let payload: String
    }

    /// Starts listening on `channel`, an identifier of letters, digits and underscores.
    ///
    /// - Throws: ``PostgresError`` for another channel name, or when the server refuses.
    public func listen(on channel: String) throws(PostgresError) {
        guard !channel.isEmpty, channel.utf8.allSatisfy({ $0 == 0x5F || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) else {
            throw PostgresError(client: "a channel is lowercase letters, digits and underscores, not '\(channel)'", sql: nil)
        }
        // A channel is an identifier, which cannot be a parameter; this one was checked above.
        try execute("LISTEN \(channel)")
    }

    /// The notifications that arrive within `timeout`, waiting for the first; empty when none
    /// came in time.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/connection`` when the
    ///   connection broke.
    public func notifications(waitingUpTo timeout: Duration) throws(PostgresError) -> [Notification] {
        var received = try drainNotifications()
        guard received.isEmpty else { return received }
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw PostgresError(connection: handle, sql: nil) }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.wholeMilliseconds)
        let ready = poll(&descriptor, 1, milliseconds)
        guard ready > 0 else { return [] }
        received = try drainNotifications()
        return received
    }

    /// Reads what the server sent and returns the notifications among it.
    private func drainNotifications() throws(PostgresError) -> [Notification] {
        guard PQconsumeInput(handle) == 1 else { throw PostgresError(connection: handle, sql: nil) }
        var received: [Notification] = []
        while let notice = PQnotifies(handle) {
            received.append(Notification(channel: String(cString: notice.pointee.relname),
                                         payload: notice.pointee.extra.map { String(cString: $0) } ?? ""))
            PQfreemem(notice)
        }
        return received
    }

    /// Sends `payload` on `channel` to every connection listening on it, when this
    /// connection's transaction commits (at once outside one).
    public func notify(_ channel: String, payload: String) throws(PostgresError) {
        try execute("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }
}
