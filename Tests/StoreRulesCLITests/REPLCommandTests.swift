import Foundation
import Testing
import TestPrerequisites

@Suite struct REPLCommandTests {
    @Test func aPipedSessionRunsLineByLine() throws {
        let session = """
        policy.show_merchandising(ctx, "home")
        :ctx subscribe pass.individual
        decide("visible_relationships", "6F3A93AB")
        decide("plan_icon", "pass.premium")
        for i = 1, 2 do
          print("line " .. i)
        end
        nosuch.field
        :buy pellet.box 2
        ctx.customer.balances.pellet
        :quit
        """
        let result = try CommandRunner.run(["repl", "Examples/BackyardBirds"], input: session)
        #expect(result.status == 1, "nosuch.field failed")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "true")
        #expect(lines.contains("{ \"upgrade\" }"))
        #expect(lines.contains("\"bird\""))
        #expect(lines.contains("line 1") && lines.contains("line 2"))
        #expect(lines.contains { $0.hasPrefix("runtime error at input:1: attempt to index a nil value (global 'nosuch')") })
        #expect(lines.contains("granted +10 pellet"))
        #expect(lines.last == "10")
    }

    /// Drives the REPL through a real terminal (tmux) to prove line editing and history work.
    @Test(.enabled(if: TestPrerequisite.runs(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")), "needs tmux"))
    func lineEditingAndHistoryWorkOnATerminal() throws {
        let name = "storerules-repl-\(UUID().uuidString.prefix(8))"
        let history = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(name)")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        /// Starts tmux against this test's own server (`-L`).
        func launch(_ arguments: [String], output: Any) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
            process.arguments = ["-L", name] + arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        /// Runs a tmux client of the running server and returns what it printed.
        @discardableResult
        func tmux(_ arguments: String...) throws -> String {
            let output = Pipe()
            let process = try launch(arguments, output: output)
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        func screen(until done: (String) -> Bool) throws -> String {
            var shown = ""
            for _ in 0..<100 {
                shown = try tmux("capture-pane", "-p", "-t", name)
                if done(shown) { return shown }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return shown
        }
        func screen(waitingFor text: String) throws -> String {
            try screen { $0.contains(text) }
        }
        func answers(_ shown: String) -> Int {
            shown.split(separator: "\n").filter { $0 == "14" }.count
        }
        let command = "cd \(CommandRunner.packageRoot.path) && HOME=\(history.path) \(CommandRunner.executable.path) repl Examples/BackyardBirds"
        // The client that starts the server is not waited for: the server it forks inherits
        // every descriptor the client has, including the socket through which Foundation
        // learns that the client exited, so that client counts as running until the server
        // stops. The screen shows when the session is up.
        _ = try launch(["new-session", "-d", "-s", name, "-x", "120", "-y", "30", command], output: FileHandle.nullDevice)
        defer { _ = try? tmux("kill-server") }
        #expect(try screen(waitingFor: "storerules>").contains("StoreRules policy REPL"))
        // Type "2 + 2", go to the start of the line with Ctrl-A, insert "1": "12 + 2".
        try tmux("send-keys", "-t", name, "2 + 2", "C-a", "1", "Enter")
        #expect(try screen(waitingFor: "14").contains("14"))
        // Up arrow brings the last line back from the history; run it again.
        try tmux("send-keys", "-t", name, "Up", "Enter")
        let shown = try screen { answers($0) >= 2 }
        #expect(answers(shown) == 2, "\(shown)")
        #expect(shown.components(separatedBy: "storerules> 12 + 2").count == 3, "\(shown)")
        try tmux("send-keys", "-t", name, ":quit", "Enter")
    }
}
