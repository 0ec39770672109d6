import Foundation
import Testing

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
        #expect(result.status == 0)
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
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func lineEditingAndHistoryWorkOnATerminal() throws {
        let name = "storerules-repl-\(UUID().uuidString.prefix(8))"
        let history = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(name)")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        /// Runs tmux; only `capture-pane` output is read (a new session's server keeps any
        /// inherited pipe open for as long as it runs).
        func tmux(_ arguments: String...) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
            process.arguments = Array(arguments)
            let capture = arguments.first == "capture-pane"
            let output = Pipe()
            process.standardOutput = capture ? output : FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = capture ? output.fileHandleForReading.readDataToEndOfFile() : Data()
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
        _ = try tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "30", command)
        defer { _ = try? tmux("kill-session", "-t", name) }
        #expect(try screen(waitingFor: "storerules>").contains("StoreRules policy REPL"))
        // Type "2 + 2", go to the start of the line with Ctrl-A, insert "1": "12 + 2".
        _ = try tmux("send-keys", "-t", name, "2 + 2", "C-a", "1", "Enter")
        #expect(try screen(waitingFor: "14").contains("14"))
        // Up arrow brings the last line back from the history; run it again.
        _ = try tmux("send-keys", "-t", name, "Up", "Enter")
        let shown = try screen { answers($0) >= 2 }
        #expect(answers(shown) == 2, "\(shown)")
        #expect(shown.components(separatedBy: "storerules> 12 + 2").count == 3, "\(shown)")
        _ = try tmux("send-keys", "-t", name, ":quit", "Enter")
    }
}
