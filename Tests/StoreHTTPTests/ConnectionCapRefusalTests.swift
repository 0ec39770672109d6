import Foundation
import StoreHTTP
import StoreService
import Synchronization
import Testing

/// A connection refused for a cap is counted by the cap it met, so an operator sees one client
/// taking the connections (or a proxy whose every connection shares one address).
@Suite struct ConnectionCapRefusalTests {
    @Test("a connection over the per-address cap is counted under cap=\"address\", and the connection the address holds is still served")
    func addressCapIsCounted() throws {
        let server = try TestServer { $0.connectionsPerAddressLimit = 1 }
        let first = try RawSocket(port: server.port)
        try #require(server.waitForOpenConnections(1), "the server took the first connection")
        let second = try RawSocket(port: server.port)
        second.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(RawResponse(second.receive(timeout: .seconds(5)).text).status == 503)
        let exposition = server.router.metrics.exposition(unfinishedTransactions: nil, policyVersion: "v")
        #expect(exposition.contains(#"storerules_connections_refused_total{cap="address"} 1"#), "\(exposition)")
        #expect(!exposition.contains(#"cap="server""#))
        first.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(RawResponse(first.receive(timeout: .seconds(5)).text).status == 200)
    }

    @Test("refusals are logged once a minute for each cap, naming the option and the proxy case")
    func refusalsAreLoggedOncePerCap() throws {
        let lines = Mutex([String]())
        let server = try TestServer()
        let router = HTTPRouter(service: server.router.service, access: .unauthenticated) { line in lines.withLock { $0.append(line) } }
        for _ in 0..<3 { router.recordConnectionRefusal(cap: "address", client: "203.0.113.7") }
        router.recordConnectionRefusal(cap: "server", client: "198.51.100.2")
        let written = lines.withLock { $0 }
        #expect(written.count == 2, "\(written)")
        #expect(written.first?.contains("203.0.113.7") == true && written.first?.contains("--max-connections-per-address") == true)
        #expect(written.last?.contains("--max-connections") == true)
        #expect(router.metrics.exposition(unfinishedTransactions: nil, policyVersion: "v")
                    .contains(#"storerules_connections_refused_total{cap="address"} 3"#))
    }
}
