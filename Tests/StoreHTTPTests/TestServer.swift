import Foundation
import StoreHTTP
import StoreService
import TestPrerequisites

/// An ``HTTPServer`` on a free loopback port over the Backyard Birds example, with a new SQLite
/// ledger in a temporary folder and no keys.
final class TestServer {
    let server: HTTPServer
    let router: HTTPRouter
    private let folder: URL

    var port: UInt16 { server.port }

    init(configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folder = try TestFolders.make("storerules-http")
        let service = try Service(configuration: ServiceConfiguration(
            folder: packageRoot.appending(path: "Examples/BackyardBirds").path,
            ledger: SQLiteLedgerFile(path: folder.appending(path: "ledger.sqlite").path), rootCertificates: [],
            bundleId: "com.example.backyardbirds", environment: .xcode))
        var configuration = HTTPServerConfiguration(port: 0, threads: 2)
        configure(&configuration)
        router = HTTPRouter(service: service, access: .unauthenticated)
        server = try HTTPServer(handler: router, configuration: configuration)
    }

    deinit {
        server.stop(grace: .zero)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Sends `request` on a new connection and reads the answer until the server closes it or
    /// ten seconds pass.
    func exchange(_ request: String) throws -> (response: RawResponse, closed: Bool) {
        let socket = try RawSocket(port: port)
        socket.send(request)
        let (text, closed) = socket.receive(timeout: .seconds(10))
        return (RawResponse(text), closed)
    }

    /// Waits up to ten seconds until the server holds `count` open connections; whether it did.
    func waitForOpenConnections(_ count: Int) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while server.openConnections < count {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// Whether `GET /healthz` on a new connection is answered `200` within five seconds.
    func isAnswering() throws -> Bool {
        let socket = try RawSocket(port: port)
        socket.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        return RawResponse(socket.receive(timeout: .seconds(5)).text).status == 200
    }
}
