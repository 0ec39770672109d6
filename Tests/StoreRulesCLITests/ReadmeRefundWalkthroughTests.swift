import Foundation
import Testing

/// The README's refund loop, its two shells run by `bash` as written, but for the build
/// (already done), the folder (a temporary one) and the ports: the store's API and the service
/// listen on port 0, and what follows each uses the port the kernel gave, which it prints. The
/// serving shell runs in a session of its own, so that its background store API and the service
/// stop with it.
@Suite struct ReadmeRefundWalkthroughTests {
    @Test("the README's refund shells answer Apple's refund request with the policy's DECLINE")
    func refundLoopRuns() throws {
        let readme = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Where money is won or lost"))
        let blocks = ReadmeServiceWalkthroughTests.shellBlocks(in: readme[section.upperBound...]).prefix(2)
        try #require(blocks.count == 2, "the section has a serving shell and a second shell")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-refund-\(UUID().uuidString)").path
        let binaries = CommandRunner.executable.deletingLastPathComponent().path
        let adapt = { (block: String) in
            block.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != "swift build" }.joined(separator: "\n")
                .replacingOccurrences(of: "$PWD/.build/debug", with: binaries)
                .replacingOccurrences(of: "refund-demo", with: folder)
                .replacingOccurrences(of: "../Examples", with: CommandRunner.packageRoot.path + "/Examples")
        }
        // The store's API prints its address to a file of its own; the service is started once
        // that address is there, and told it.
        let storeAPI = "$store api --listen 127.0.0.1:8090 &"
        try #require(blocks[0].contains(storeAPI), "the serving shell starts the store's API in the background")
        let serveBlock = adapt(String(blocks[0]))
            .replacingOccurrences(of: storeAPI, with: """
                $store api --listen 127.0.0.1:0 > store-api.out &
                for _ in $(seq 600); do grep -q 'listening on' store-api.out && break; sleep 0.1; done
                store_api=$(grep -o 'http://127.0.0.1:[0-9]*' store-api.out | head -1)
                """)
            .replacingOccurrences(of: "http://127.0.0.1:8090", with: "$store_api")
            .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:0")
        let group = folder + ".pgid"
        let serving = Process()
        serving.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        serving.arguments = ["/bin/bash", "-c", "echo $$ > '\(group)'\nset -e\n" + serveBlock + " 2>&1"]
        serving.currentDirectoryURL = CommandRunner.packageRoot
        let servingOutput = Pipe()
        serving.standardOutput = servingOutput
        serving.standardError = FileHandle.nullDevice
        try serving.run()
        defer {
            if let pgid = try? String(contentsOfFile: group, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) {
                _ = try? CommandRunner.bash("kill -TERM -- -\(pgid)").0.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: group)
        }
        let printed = OutputLines(servingOutput.fileHandleForReading)
        let servicePort = try #require(printed.listeningPort(of: "storerules serve", within: .seconds(120)), "the service listens: \(printed.text)")

        let (second, pipe) = try CommandRunner.bash("set -e\n" + adapt(String(blocks[1]))
            .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(servicePort)"))
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        second.waitUntilExit()
        #expect(second.terminationStatus == 0, "\(output)")
        #expect(output.contains("DELIVERED"), "\(output)")
        #expect(output.contains("80000"), "\(output)")
        #expect(output.contains("DECLINE"), "\(output)")
        #expect(output.contains("answered"), "\(output)")
    }
}
