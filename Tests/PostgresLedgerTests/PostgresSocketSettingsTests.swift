import CLibPQ
import Foundation
@testable import PostgresLedger
import Testing
import TestPrerequisites

/// A connection's socket finds a vanished server by itself: TCP keepalive probes and a user
/// timeout, as ``PostgresTimeouts`` says, unless the URL names its own.
@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PostgresSocketSettingsTests {
    static let timeouts = PostgresTimeouts(keepaliveIdle: .seconds(41), keepaliveInterval: .seconds(7), keepaliveCount: 4,
                                           tcpUserTimeout: .milliseconds(12_500))

    @Test("the socket has keepalive on, with the idle time, interval and count of the timeouts, and their user timeout")
    func socketCarriesTheTimeouts() throws {
        let database = try PostgresTestDatabase()
        let connection = try PostgresConnection(url: database.url, timeouts: Self.timeouts)
        let socket = PQsocket(connection.handle)
        #expect(Self.option(socket, SOL_SOCKET, SO_KEEPALIVE) == 1)
        #expect(Self.option(socket, Int32(IPPROTO_TCP), TCP_KEEPIDLE) == 41)
        #expect(Self.option(socket, Int32(IPPROTO_TCP), TCP_KEEPINTVL) == 7)
        #expect(Self.option(socket, Int32(IPPROTO_TCP), TCP_KEEPCNT) == 4)
        #expect(Self.option(socket, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT) == 12_500)
    }

    @Test("a URL's own keepalive idle time and user timeout win over the timeouts'")
    func urlSettingsWin() throws {
        let database = try PostgresTestDatabase()
        let separator = database.url.contains("?") ? "&" : "?"
        let connection = try PostgresConnection(url: database.url + separator + "keepalives_idle=99&tcp_user_timeout=2000",
                                                timeouts: Self.timeouts)
        let socket = PQsocket(connection.handle)
        #expect(Self.option(socket, Int32(IPPROTO_TCP), TCP_KEEPIDLE) == 99)
        #expect(Self.option(socket, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT) == 2000)
        #expect(Self.option(socket, Int32(IPPROTO_TCP), TCP_KEEPCNT) == 4)
    }

    /// The integer socket option `name` at `level`, or nil when it cannot be read.
    static func option(_ socket: Int32, _ level: Int32, _ name: Int32) -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(socket, level, name, &value, &length) == 0 ? value : nil
    }
}
