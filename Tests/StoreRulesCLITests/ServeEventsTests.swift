import Foundation
import StoreCore
import Testing
import TestPrerequisites

/// `storerules serve --events-url` against a receiver built on the Standard Webhooks reference
/// library (`scripts/contract/webhook_receiver.py`): an event committed with its purchase is
/// delivered even when the service is killed before it could send it.
@Suite(.serialized, .enabled(if: WebhookReceiverProcess.runs, "needs scripts/contract/setup.sh's .venv-contract"))
struct ServeEventsTests {
    @Test("an event committed while the receiver is down survives SIGKILL of serve and is delivered, verified, after the restart")
    func eventSurvivesKill() throws {
        let directory = try TestFolders.make("serve-events")
        let secretPath = directory.appending(path: "events.secret").path
        let made = try CommandRunner.run(["events", "secret", secretPath])
        #expect(made.status == 0 && !made.standardOutput.contains("whsec_"), "the secret is written, never printed")
        let port = try WebhookReceiverProcess.freePort()
        let ledger = directory.appending(path: "ledger.sqlite").path
        let events = ["--events-url", "http://127.0.0.1:\(port)/hooks", "--events-secret", secretPath]

        var server: ServeProcess? = try ServeProcess(ledger: ledger, extra: events)
        let payload = try SignedFixtures.sign(SignedFixtures.consumable(id: "killed-1", quantity: 2))
        let bought = try #require(server).request("POST", "/v1/transactions", json: ["customer": "ana", "signed_transaction": payload])
        #expect(bought.status == 200, "\(bought.text)")
        try #require(server).send(signal: SIGKILL)
        server = nil

        let receiver = try WebhookReceiverProcess(secretPath: secretPath, port: port)
        let listed = try CommandRunner.run(["events", "list", "--ledger", ledger, "--json"])
        let pending = listed.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(pending.map { $0["type"] as? String } == ["purchase.granted"])
        #expect(pending.allSatisfy { ($0["state"] as? String) != "delivered" }, "nothing was delivered before the kill")

        let restarted = try ServeProcess(ledger: ledger, extra: events)
        let deadline = Date().addingTimeInterval(30)
        while receiver.received.isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let received = receiver.received
        #expect(received.count == 1 && received.allSatisfy { $0["refused"] == nil }, "\(received)")
        #expect(received.first?["id"] as? String == pending.first?["id"] as? String, "the same event, with its id")
        #expect(received.first?["customer"] as? String == "ana")
        // The round records its attempts once every one of them is answered: the receiver may be first.
        let delivered = "storerules_outgoing_event_attempts_total{outcome=\"delivered\"} 1"
        var metrics = try restarted.request("GET", "/metrics", key: ServeProcess.adminKey).text
        while !metrics.contains(delivered), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            metrics = try restarted.request("GET", "/metrics", key: ServeProcess.adminKey).text
        }
        #expect(metrics.contains(delivered), "\(metrics)")
        #expect(!restarted.standardError.contains(try String(contentsOfFile: secretPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))

        let before = String(Date().millisecondsSince1970 + 1_000)
        let pruned = try CommandRunner.run(["events", "prune", "--ledger", ledger, "--before", before])
        #expect(pruned.status == 0 && pruned.standardOutput.hasPrefix("deleted 1 delivered or skipped event "), "\(pruned.standardOutput)")
        #expect(try CommandRunner.run(["events", "list", "--ledger", ledger]).standardOutput == "no events\n")
    }
}

/// `scripts/contract/webhook_receiver.py` running with the contract judges' interpreter.
final class WebhookReceiverProcess {
    static let python = CommandRunner.packageRoot.appending(path: ".venv-contract/bin/python")

    /// Whether the receiver can run: when its environment exists, and always under CI.
    static var runs: Bool { TestPrerequisite.runs(FileManager.default.isExecutableFile(atPath: python.path)) }

    private let process = Process()
    private let out: URL

    /// A receiver verifying with the secret in `secretPath`, on `port`.
    init(secretPath: String, port: UInt16) throws {
        out = FileManager.default.temporaryDirectory.appending(path: "received-\(UUID().uuidString).jsonl")
        process.executableURL = Self.python
        process.arguments = [CommandRunner.packageRoot.appending(path: "scripts/contract/webhook_receiver.py").path,
                             secretPath, out.path, "--port", String(port)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("listening") else { throw ReceiverFailure(output: line) }
    }

    deinit {
        // A process started from a thread that blocks SIGTERM inherits the block; SIGKILL is never blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// What the receiver recorded, one object per delivery.
    var received: [[String: Any]] {
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> UInt16 {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw ReceiverFailure(output: "no free port") }
        return UInt16(bigEndian: address.sin_port)
    }

    struct ReceiverFailure: Error, CustomStringConvertible {
        let output: String
        var description: String { "the webhook receiver did not start: \(output)" }
    }
}
