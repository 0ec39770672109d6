import Foundation
import Testing

/// The README's service walkthrough, its shells run by `bash` as written, but for the
/// build (already done), the folder (a temporary one) and the port: the serving shell listens on
/// port 0, and the second shell uses the port the kernel gave, which the server prints.
@Suite struct ReadmeServiceWalkthroughTests {
    @Test("the README's shells grant a first purchase from the local store's notification, and show a win-back card once the store's clock lapsed a pass")
    func walkthroughRuns() throws {
        let readme = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Run it as a service"))
        let blocks = Self.shellBlocks(in: readme[section.upperBound...]).prefix(3)
        try #require(blocks.count == 3, "the section has a serving shell, a second shell and its win-back")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)").path
        let binaries = CommandRunner.executable.deletingLastPathComponent().path
        let adapt = { (block: String, port: Int) in
            block.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != "swift build" }.joined(separator: "\n")
                .replacingOccurrences(of: "$PWD/.build/debug", with: binaries)
                .replacingOccurrences(of: "service-demo", with: folder)
                .replacingOccurrences(of: "../Examples", with: CommandRunner.packageRoot.path + "/Examples")
                .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
        }
        let (serving, servingOutput) = try CommandRunner.bash("set -e\n" + adapt(String(blocks[0]), 0))
        defer {
            serving.terminate()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let printed = OutputLines(servingOutput.fileHandleForReading)
        let port = try #require(printed.listeningPort(of: "storerules serve", within: .seconds(60)), "the service listens: \(printed.text)")
        let (second, pipe) = try CommandRunner.bash("set -e\n" + adapt(String(blocks[1]) + "\n" + String(blocks[2]), port))
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        second.waitUntilExit()
        #expect(second.terminationStatus == 0, "\(output)")
        #expect(output.contains(#""status":"processed""#), "\(output)")
        #expect(output.contains(#""balances":{"pellet":5},"customer":"watcher-1","customer_known":true"#), "\(output)")
        #expect(output.contains(#""customer_id":"watcher-1""#), "\(output)")
        #expect(output.contains(#""win_back":{"#) && output.contains(#""offer_id":"premium.welcome.back""#), "\(output)")
        serving.terminate()
        serving.waitUntilExit()
    }

    @Test("the README's Talk to Apple shells call the local store's API with the appstore command")
    func talkToAppleRuns() throws {
        let readme = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Talk to Apple"))
        let blocks = Self.shellBlocks(in: readme[section.upperBound...]).prefix(2)
        try #require(blocks.count == 2, "the section has a serving shell and a second shell")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-apple-\(UUID().uuidString)").path
        let binaries = CommandRunner.executable.deletingLastPathComponent().path
        let adapt = { (block: String, port: Int) in
            block.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != "swift build" }.joined(separator: "\n")
                .replacingOccurrences(of: "$PWD/.build/debug", with: binaries)
                .replacingOccurrences(of: "appstore-demo", with: folder)
                .replacingOccurrences(of: "../Examples", with: CommandRunner.packageRoot.path + "/Examples")
                .replacingOccurrences(of: "127.0.0.1:8090", with: "127.0.0.1:\(port)")
        }
        let (serving, servingOutput) = try CommandRunner.bash("set -e\n" + adapt(String(blocks[0]), 0))
        defer {
            serving.terminate()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let printed = OutputLines(servingOutput.fileHandleForReading)
        let port = try #require(printed.listeningPort(of: "storerules store api", within: .seconds(60)), "the store's api listens: \(printed.text)")
        let (second, pipe) = try CommandRunner.bash("set -e\n" + adapt(String(blocks[1]), port))
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        second.waitUntilExit()
        #expect(second.terminationStatus == 0, "\(output)")
        #expect(output.contains("2000000000000001  pass.premium"), "\(output)")
        #expect(output.contains("2000000000000002  pellet.box"), "\(output)")
        #expect(output.contains("2 transactions in 1 pages"), "\(output)")
        #expect(output.contains("active  pass.premium  renews to pass.premium"), "\(output)")
        #expect(output.contains("Extended 2000000000000001: renews "), "\(output)")
        serving.terminate()
        serving.waitUntilExit()
    }

    /// The text of each fenced `sh` block, in order.
    static func shellBlocks(in text: Substring) -> [Substring] {
        var blocks: [Substring] = []
        var rest = text
        while let start = rest.range(of: "```sh\n"), let end = rest[start.upperBound...].range(of: "```") {
            blocks.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return blocks
    }
}
