import Foundation
import Testing
import TestPrerequisites

/// What `storerules bench` says about the build it runs in.
@Suite struct BenchCommandTests {
    @Test("a debug build says so in the first line of its figures")
    func aDebugBuildSaysSo() throws {
        let directory = try TestFolders.make("bench-note")
        defer { try? FileManager.default.removeItem(at: directory) }
        let alone = directory.appendingPathComponent("storerules")
        try FileManager.default.copyItem(at: CommandRunner.executable, to: alone)
        let process = Process()
        process.executableURL = alone
        process.arguments = ["bench", "--sections", "decisions", "--iterations", "100"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let note = "storerules bench: this is a debug build; figures are not representative — build with -c release"
        #if DEBUG
        #expect(text.split(separator: "\n").first.map(String.init) == note)
        #else
        #expect(!text.contains(note))
        #endif
    }
}
