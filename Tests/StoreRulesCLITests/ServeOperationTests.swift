import Foundation
import Testing
import TestPrerequisites

/// Running `storerules serve`: HTTPS, keys re-read on SIGHUP, the decision log.
@Suite(.serialized) struct ServeOperationTests {
    @Test("with --tls-cert and --tls-key it serves HTTPS, which a TLS client that trusts the certificate reads")
    func servesHTTPS() throws {
        let directory = try TestFolders.make("serve-tls")
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let made = try Self.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
            "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        #expect(made.status == 0, "\(made.output)")
        let server = try ServeProcess(extra: ["--tls-cert", certificate, "--tls-key", key])
        #expect(server.baseURL.scheme == "https")
        let fetched = try Self.run("/usr/bin/python3", ["-c", """
            import ssl, sys, urllib.request
            context = ssl.create_default_context(cafile=sys.argv[1])
            with urllib.request.urlopen(sys.argv[2] + "/healthz", context=context, timeout=30) as response:
                print(response.status, response.read().decode())
            """, certificate, server.baseURL.absoluteString])
        #expect(fetched.status == 0, "\(fetched.output)")
        #expect(fetched.output.hasPrefix("200 "), "\(fetched.output)")
        #expect(fetched.output.contains(#""status":"ok""#))
    }

    @Test("a TLS key that does not fit its certificate is said apart, before the ledger is opened")
    func mismatchedTLSKeyIsRefusedFirst() throws {
        let directory = try TestFolders.make("serve-tls")
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let other = directory.appendingPathComponent("other.pem").path
        #expect(try Self.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
            "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1",
        ]).status == 0)
        #expect(try Self.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", other]).status == 0)
        let ledger = directory.appendingPathComponent("ledger.sqlite").path
        let refused = try CommandRunner.run([
            "serve", CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds").path, "--ledger", ledger,
            "--bundle-id", ServiceProcess.bundleId, "--environment", "Xcode", "--insecure-no-auth", "--listen", "127.0.0.1:0",
            "--tls-cert", certificate, "--tls-key", other,
        ])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("does not match the certificate"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: ledger))
    }

    @Test("SIGHUP re-reads the keys file, and a broken one leaves the keys in use")
    func keysAreReadAgainOnSIGHUP() throws {
        let server = try ServeProcess()
        let newKey = "rotated-app-key-0123456789"
        try "app \(newKey)\nadmin \(ServeProcess.adminKey)\n".write(toFile: server.keysPath, atomically: true, encoding: .utf8)
        server.send(signal: SIGHUP)
        #expect(try Self.eventually { try server.request("GET", "/v1/customers/ana/storefront", key: newKey).status == 200 })
        #expect(try server.request("GET", "/v1/customers/ana/storefront", key: ServeProcess.appKey).status == 401)
        try "app short\n".write(toFile: server.keysPath, atomically: true, encoding: .utf8)
        server.send(signal: SIGHUP)
        #expect(try Self.eventually { server.standardError.contains("API keys kept") }, "\(server.standardError)")
        #expect(try server.request("GET", "/v1/customers/ana/storefront", key: newKey).status == 200)
    }

    @Test("--decision-log FILE is where the served decisions' lines go, one per decision, with the request id")
    func decisionsAreLogged() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("decisions-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let server = try ServeProcess(extra: ["--decision-log", log])
        let body = try JSONSerialization.data(withJSONObject: ["ctx": [String: Any](), "args": ["home"]])
        let decided = try server.request("POST", "/v1/decisions/show_merchandising", body: body, headers: ["X-Request-Id": "req-42"])
        #expect(decided.status == 200)
        _ = try server.request("POST", "/v1/decisions/features", json: ["customer": "ana"])
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["request_id"] as? String == "req-42")
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["customer"] as? String == "ana")
    }

    @Test("--watch picks up a changed catalog with its script under a new version; a broken one shows in /readyz and is counted once")
    func watchReloadsTheCatalog() throws {
        let server = try ServeProcess(extra: ["--watch"])
        let version = { try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey).json["version"] as? String }
        let prices = {
            ((try server.request("GET", "/v1/customers/ana/storefront").json["products"] as? [[String: Any]]) ?? [])
                .compactMap { $0["display_price"] as? String }
        }
        let before = try version()
        let catalog = server.folder.appendingPathComponent("Products.storekit")
        let text = try String(contentsOf: catalog, encoding: .utf8)
        try text.replacingOccurrences(of: "\"displayPrice\" : \"0.99\"", with: "\"displayPrice\" : \"1.29\"")
            .write(to: catalog, atomically: true, encoding: .utf8)
        #expect(try Self.eventually { try prices().contains("$1.29") })
        let repriced = try version()
        #expect(repriced != before, "a changed price is a new version")
        try "{ not a catalog".write(to: catalog, atomically: true, encoding: .utf8)
        #expect(try Self.eventually {
            (try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey).json["problem"] as? String)?
                .contains("Products.storekit") == true
        })
        let readiness = try server.request("GET", "/readyz", key: nil).json
        #expect(readiness["policy_problem"] != nil)
        #expect(!((readiness["policy_problem"] as? String) ?? "").contains(server.folder.path), "no path in a route that needs no key: \(readiness)")
        #expect(try version() == repriced, "the previous version keeps serving")
        Thread.sleep(forTimeInterval: 1.5)
        let metrics = try server.request("GET", "/metrics", key: ServeProcess.adminKey).text
        #expect(metrics.contains(#"storerules_policy_reloads_total{result="failure"} 1"#), "\(metrics)")
        try text.write(to: catalog, atomically: true, encoding: .utf8)
        #expect(try Self.eventually { (try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey).json["problem"]) == nil })
        try text.write(to: server.folder.appendingPathComponent("Other.storekit"), atomically: true, encoding: .utf8)
        #expect(try Self.eventually {
            (try server.request("GET", "/v1/admin/policy", key: ServeProcess.adminKey).json["problem"] as? String)?
                .contains("several .storekit files") == true
        })
        let reload = try server.request("POST", "/v1/admin/reload", key: ServeProcess.adminKey)
        #expect(reload.status == 422, "a reload refuses a folder with two catalogs: \(reload.text)")
    }

    /// Polls `condition` for up to 10 seconds.
    private static func eventually(_ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Runs a program and returns its status and what it printed.
    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
