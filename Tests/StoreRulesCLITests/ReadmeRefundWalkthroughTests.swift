import Foundation
import Testing

/// The README's refund loop, its two shells run by `bash` as written, but for the build
/// (already done), the folder (a temporary one) and the ports (free ones). The serving shell
/// runs in a session of its own, so that its background store API and the service stop with it.
@Suite struct ReadmeRefundWalkthroughTests {
    @Test("the README's refund shells answer Apple's refund request with the policy's DECLINE")
    func refundLoopRuns() throws {
        let readme = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Where money is won or lost"))
        let blocks = ReadmeServiceWalkthroughTests.shellBlocks(in: readme[section.upperBound...]).prefix(2)
        try #require(blocks.count == 2, "the section has a serving shell and a second shell")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-refund-\(UUID().uuidString)").path
        let servicePort = Int.random(in: 20_000...30_000), storePort = Int.random(in: 30_001...40_000)
        let binaries = CommandRunner.executable.deletingLastPathComponent().path
        let adapt = { (block: String) in
            block.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != "swift build" }.joined(separator: "\n")
                .replacingOccurrences(of: "$PWD/.build/debug", with: binaries)
                .replacingOccurrences(of: "refund-demo", with: folder)
                .replacingOccurrences(of: "../Examples", with: CommandRunner.packageRoot.path + "/Examples")
                .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(servicePort)")
                .replacingOccurrences(of: "127.0.0.1:8090", with: "127.0.0.1:\(storePort)")
        }
        let log = folder + ".log", group = folder + ".pgid"
        let serving = Process()
        serving.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        serving.arguments = ["/bin/bash", "-c", "echo $$ > '\(group)'\nset -e\n" + adapt(String(blocks[0])) + " > '\(log)' 2>&1"]
        serving.currentDirectoryURL = CommandRunner.packageRoot
        serving.standardOutput = FileHandle.nullDevice
        serving.standardError = FileHandle.nullDevice
        try serving.run()
        defer {
            if let pgid = try? String(contentsOfFile: group, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) {
                _ = try? CommandRunner.bash("kill -TERM -- -\(pgid)").0.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: group)
        }
        var listening = false
        for _ in 0..<300 where !listening {
            let (probe, answer) = try CommandRunner.bash("curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:\(servicePort)/healthz")
            listening = String(decoding: answer.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "200"
            probe.waitUntilExit()
            if !listening { Thread.sleep(forTimeInterval: 0.1) }
        }
        try #require(listening, "the service answers: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")

        let (second, pipe) = try CommandRunner.bash("set -e\n" + adapt(String(blocks[1])))
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        second.waitUntilExit()
        #expect(second.terminationStatus == 0, "\(output)")
        #expect(output.contains("DELIVERED"), "\(output)")
        #expect(output.contains("80000"), "\(output)")
        #expect(output.contains("DECLINE"), "\(output)")
        #expect(output.contains("answered"), "\(output)")
    }
}
