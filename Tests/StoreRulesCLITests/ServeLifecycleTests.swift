import Foundation
import Testing

/// `storerules serve` as a process: it survives bytes that are not HTTP, ends on SIGTERM, and
/// refuses to start without keys. What its routes answer is tested in process, in
/// StoreServiceTests.
@Suite(.serialized) struct ServeLifecycleTests {
    @Test("the server survives bytes that are not HTTP and answers the next request; SIGTERM ends it with status 0")
    func survivesGarbageAndStopsOnSIGTERM() throws {
        let server = try ServeProcess()
        let port = server.baseURL.port ?? 0
        let garbage = Process()
        garbage.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        garbage.arguments = ["-c", """
            import socket
            for payload in [b"\\x00\\xff GARBAGE\\r\\n\\r\\n", b"GET / HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: -5\\r\\n\\r\\n", b"POST /v1/notifications HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\nZZ\\r\\n"]:
                s = socket.create_connection(("127.0.0.1", \(port)))
                s.sendall(payload)
                s.settimeout(5)
                answer = s.recv(4096)
                s.close()
                assert answer.startswith(b"HTTP/1.1 400 "), answer
                assert b"application/json" in answer, answer
            """]
        try garbage.run()
        garbage.waitUntilExit()
        #expect(garbage.terminationStatus == 0, "each payload is answered 400 in JSON")
        #expect(try server.request("GET", "/healthz", key: nil).status == 200)
        #expect(server.terminate() == 0)
    }

    @Test("without keys the server refuses to start, unless told to serve without them on loopback only")
    func refusesToStartWithoutKeys() throws {
        let folder = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds").path
        let ledger = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).sqlite").path
        let common = ["serve", folder, "--ledger", ledger, "--bundle-id", ServiceProcess.bundleId, "--environment", "Xcode"]
        let noKeys = try CommandRunner.run(common + ["--listen", "127.0.0.1:0"])
        #expect(noKeys.status == 64)
        #expect(noKeys.standardError.contains("missing --api-keys FILE"))
        let open = try CommandRunner.run(common + ["--listen", "0.0.0.0:0", "--insecure-no-auth"])
        #expect(open.status == 64)
        #expect(open.standardError.contains("only on a loopback address"))
        #expect(!FileManager.default.fileExists(atPath: ledger))
        let server = try ServeProcess(auth: false)
        #expect(try server.request("GET", "/v1/customers/ana/storefront", key: nil).status == 200)
    }
}
