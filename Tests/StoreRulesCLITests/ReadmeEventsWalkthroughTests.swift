import Foundation
import Testing

/// The README's outgoing-events shell, run by `bash` as written but for the folder (a temporary
/// one) and the two ports (free ones): the stand-in backend prints the events of a first purchase.
@Suite struct ReadmeEventsWalkthroughTests {
    @Test("the README's events shell has the backend receive a purchase's signed events, and the ledger list them delivered")
    func walkthroughRuns() throws {
        let readme = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "### The backend hears of every change"))
        let block = try #require(ReadmeServiceWalkthroughTests.shellBlocks(in: readme[section.upperBound...]).first)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-events-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (backendPort, servicePort) = (try WebhookReceiverProcess.freePort(), try WebhookReceiverProcess.freePort())
        let script = String(block)
            .replacingOccurrences(of: "$PWD/.build/debug", with: CommandRunner.executable.deletingLastPathComponent().path)
            .replacingOccurrences(of: "events-demo", with: folder)
            .replacingOccurrences(of: "../Examples", with: CommandRunner.packageRoot.path + "/Examples")
            .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(servicePort)")
            .replacingOccurrences(of: "127.0.0.1\", 9000", with: "127.0.0.1\", \(backendPort)")
            .replacingOccurrences(of: "127.0.0.1:9000", with: "127.0.0.1:\(backendPort)")
            // Processes the test runner starts inherit its blocked SIGTERM; SIGKILL is never blocked.
            .replacingOccurrences(of: "kill %1 %2", with: "kill -KILL %1 %2")
        let (shell, pipe) = try CommandRunner.bash("set -e\n" + script)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "\(output)")
        #expect(output.contains("backend got evt_") && output.contains(#""type":"subscription.started""#), "\(output)")
        #expect(output.contains(#""type":"entitlements.changed""#), "\(output)")
        #expect(output.contains("subscription.started  delivered"), "the ledger lists it delivered: \(output)")
        #expect(!output.contains("whsec_"), "the secret is never printed")
    }
}
