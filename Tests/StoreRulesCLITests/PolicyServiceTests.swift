import Foundation
import StoreCore
import Testing

/// The `PolicyService` example binary as a process: its line server (a reply per line, blank
/// lines skipped, several workers at once, exit 0 when its input closes) and its command line.
/// What the JSON-lines protocol answers is tested in process, in StoreServiceTests.
@Suite struct PolicyServiceTests {
    typealias JSON = [String: Any]

    @Test("the binary answers a bad line with an error and goes on, answers no blank line, and exits 0 when its input closes")
    func badLinesAreAnsweredAndTheServiceGoesOn() throws {
        let service = try ServiceProcess()
        let bad = ["not json", #"{"op": "reload"}"#, #"{"id": 102, "op": "refund"}"#]
        for line in bad {
            service.send(line: line)
            service.send(line: "   ")
        }
        let error = try #require(try service.reply(102)["error"] as? JSON)
        #expect(error["kind"] as? String == "bad_request")
        let after = try service.result(["op": "entitlements", "customer": "ada"])
        #expect(after["balances"] as? [String: Int] == [:])
        #expect(service.isRunning)

        let lines = service.outputLines
        let withoutID = try lines.compactMap { line -> JSON? in
            let reply = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? JSON)
            return reply["id"] is NSNull ? reply : nil
        }
        #expect(lines.count == bad.count + 1)
        #expect(withoutID.compactMap { ($0["error"] as? JSON)?["message"] as? String }.sorted()
                == ["every request needs an \"id\" (a string or an integer)", "the line is not a JSON object"])
        #expect(try service.finish() == 0)
    }

    @Test func concurrentRequestsFromManyCustomersEndWithExactBalances() throws {
        let service = try ServiceProcess(workers: 4)
        var generator = SystemRandomNumberGenerator()
        var expected: [String: Int] = [:]
        var lines: [(op: String, line: [String: Any])] = []
        for customer in (1...60).map({ "watcher-\($0)" }) {
            for purchase in 1...4 {
                let quantity = Int32.random(in: 1...3, using: &generator)
                let id = "\(customer)-\(purchase)"
                expected[customer, default: 0] += 5 * Int(quantity)
                let jws = try SignedFixtures.sign(SignedFixtures.consumable(id: id, quantity: quantity))
                let request: [String: Any] = ["op": "ingest_transaction", "customer": customer, "jws": jws]
                lines.append(("ingest", request))
                lines.append(("ingest", request))
            }
            lines.append(("read", ["op": "entitlements", "customer": customer]))
            lines.append(("read", ["op": "storefront", "customer": customer, "placement": "home"]))
        }
        // Pairs of the same delivery stay side by side half the time, so two workers take them
        // at once; the other half are spread over the stream.
        var stream: [(op: String, line: [String: Any])] = []
        var spread: [(op: String, line: [String: Any])] = []
        for (index, entry) in lines.enumerated() {
            if entry.op == "ingest", index % 4 >= 2 { spread.append(entry) } else { stream.append(entry) }
        }
        for entry in spread.shuffled(using: &generator) {
            stream.insert(entry, at: Int.random(in: 0...stream.count, using: &generator))
        }

        let ids = try stream.map { try service.send($0.line) }
        var outcomes: [String: Int] = [:]
        for (id, entry) in zip(ids, stream) {
            let reply = try service.reply(id)
            #expect(reply["error"] == nil, "\(reply)")
            if entry.op == "ingest", let outcome = (reply["result"] as? JSON)?["outcome"] as? String {
                outcomes[outcome, default: 0] += 1
            }
        }
        #expect(outcomes == ["granted": 240, "already_finished": 240])
        for (customer, pellets) in expected {
            let state = try service.result(["op": "entitlements", "customer": customer])
            #expect(state["balances"] as? [String: Int] == ["pellet": pellets], "\(customer)")
        }
        for line in service.outputLines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is JSON, "an interleaved line: \(line.prefix(80))")
        }
        #expect(try service.finish() == 0)
    }

    @Test(arguments: [
        (["--ledger", "l.sqlite", "--bundle-id", "b", "--environment", "Sandbox"], Int32(64), "missing --root PEM"),
        (["--ledger", "l.sqlite", "--root", "r.pem", "--bundle-id", "b", "--environment", "Staging"], 64, "--environment must be"),
        (["--ledger", "l.sqlite", "--root", "r.pem", "--bundle-id", "b", "--environment", "Sandbox", "--workers", "0"], 64, "--workers must be"),
        (["--ledger", "l.sqlite", "--root", "missing.pem", "--bundle-id", "b", "--environment", "Sandbox"], 1, "the root missing.pem"),
    ])
    func startupProblemsAreOneLineAndAStatus(arguments: [String], status: Int32, message: String) throws {
        let process = Process()
        process.executableURL = ServiceProcess.executable
        process.arguments = [CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds").path] + arguments
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        process.standardInput = Pipe()
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        #expect(text.hasPrefix("PolicyService: \(message)"), "\(text)")
    }
}
