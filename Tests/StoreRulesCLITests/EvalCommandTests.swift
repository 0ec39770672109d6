import Foundation
import Testing

@Suite struct EvalCommandTests {
    /// Hooks that fail, each with the reason `eval` must print; every hostile hook's words are
    /// tested in process (HostileHookMessageTests), the command line's one line here.
    static let hostile: [(name: String, body: String, reason: String)] = [
        ("infinite loop", "while true do end", "instruction budget exhausted"),
        ("memory bomb", "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end", "memory limit"),
        ("wrong return type", "return 'yes'", "bad result: expected a boolean, got \"yes\""),
    ]

    @Test(arguments: hostile.indices)
    func aFailingHookExitsOneWithOneLineOnStandardError(index: Int) throws {
        let hostile = Self.hostile[index]
        let folder = try CommandRunner.policyFolder("""
        local policy = {}
        function policy.show_merchandising(ctx, placement)
            \(hostile.body)
        end
        return policy
        """)
        let result = try CommandRunner.run(["eval", folder.path, "show_merchandising", "--arg", "\"home\"",
                                            "--deadline-ms", "20000", "--memory-limit-mb", "16"])
        #expect(result.status == 1, "\(hostile.name)")
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(hostile.name): \(result.standardError)")
        #expect(result.standardError.hasPrefix("storerules eval: show_merchandising (policy.lua"), "\(hostile.name): \(result.standardError)")
        #expect(result.standardError.contains(hostile.reason), "\(hostile.name): \(result.standardError)")
    }

    @Test func aSyntaxErrorNamesTheLine() throws {
        let folder = try CommandRunner.policyFolder("local policy = {}\nfunction policy.features(ctx)\n  return {\nend\nreturn policy")
        let result = try CommandRunner.run(["eval", folder.path, "features"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("storerules eval: policy.lua:4: syntax error:"), "\(result.standardError)")
    }

    @Test func theDecisionIsPrintedAsJSONWithItsHookPolicyVersionAndTrace() throws {
        let folder = try CommandRunner.policyFolder("return { probe = function(ctx) return { env = ctx.environment } end }")
        let result = try CommandRunner.run(["eval", folder.path, "probe", "--input", "-"], input: "{}")
        #expect(result.status == 0, "\(result.standardError)")
        let response = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect((response?["result"] as? [String: Any])?["env"] as? String == "xcode")
        #expect(response?["policy_version"] as? String != nil)
        #expect(response?["hook"] as? String == "probe")
        #expect((response?["trace"] as? [String: Any])?["duration_ns"] != nil)
    }

    @Test func jsonLinesAnswerEveryLineAndNeverStop() throws {
        let folder = try CommandRunner.policyFolder("""
        local policy = {}
        function policy.show_merchandising(ctx, placement) return ctx.customer.status_known end
        function policy.loop(ctx) while true do end end
        return policy
        """)
        let input = """
        {"hook": "show_merchandising", "ctx": {"customer": {"status_known": true}}, "args": ["home"]}
        this is not json
        {"hook": "loop"}
        {"hook": "no_such_hook"}
        {"hook": "show_merchandising", "args": ["home"]}
        """
        // A deadline far past the budget, so that the budget is what stops the loop however
        // busy the machine.
        let result = try CommandRunner.run(["eval", folder.path, "--jsonl", "--deadline-ms", "20000"], input: input)
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        func object(_ line: String) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        }
        #expect(object(lines[0])["result"] as? Bool == true)
        #expect((object(lines[1])["error"] as? String)?.hasPrefix("bad request") == true)
        #expect((object(lines[2])["error"] as? String)?.contains("instruction budget exhausted") == true)
        #expect((object(lines[3])["error"] as? String)?.contains("no hook named 'no_such_hook'") == true)
        #expect(object(lines[4])["result"] as? Bool == false)
    }

    @Test func commandsExplainThemselves() throws {
        for command in ["catalog", "eval", "test", "bench"] {
            let help = try CommandRunner.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.standardOutput.hasPrefix("Usage: storerules \(command)"))
        }
        let unknown = try CommandRunner.run(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("unknown command 'frobnicate'"))
        let missing = try CommandRunner.run(["eval"])
        #expect(missing.status == 64)
        #expect(missing.standardError.hasPrefix("storerules eval: missing the policy folder DIR"))
    }
}

@Suite struct LiveReloadTests {
    @Test func jsonLinesWithWatchPickUpAnEditAndSurviveABrokenOne() throws {
        let folder = try CommandRunner.policyFolder("return { plan_icon = function() return 'bird' end }")
        let policy = folder.appendingPathComponent("policy.lua")
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["eval", folder.path, "--jsonl", "--watch"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let answers = OutputLines(output.fileHandleForReading), messages = OutputLines(errors.fileHandleForReading)
        defer { if process.isRunning { process.terminate() } }
        // Each request is answered before the next edit, so no edit races the start; each edit
        // is dated a minute after the one before, so the watcher sees it however coarse the clock.
        let written = Date()
        func ask() -> String {
            input.fileHandleForWriting.write(Data((#"{"hook": "icon"}"# + "\n").utf8))
            return answers.next(within: .seconds(60)) ?? "no answer within a minute: \(messages.text)"
        }
        func edit(_ text: String, minutesLater minutes: Double) throws {
            try text.write(to: policy, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: written.addingTimeInterval(60 * minutes)], ofItemAtPath: policy.path)
        }
        let unknown = ask()
        try edit("return { icon = function() return 'star' end }", minutesLater: 1)
        let edited = ask()
        try edit("return { icon = function() return 'broken' end", minutesLater: 2)
        let afterBrokenEdit = ask()
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(unknown.contains("no hook named 'icon'"), "\(unknown)")
        #expect(edited.contains(#""result":"star""#), "\(edited)")
        #expect(afterBrokenEdit.contains(#""result":"star""#), "a broken edit keeps the old policy serving: \(afterBrokenEdit)")
        #expect(answers.next(within: .seconds(10)) == nil, "one answer a request")
        #expect(messages.first(containing: "reloaded policy.lua", within: .seconds(10)) != nil, "\(messages.text)")
        #expect(messages.first(containing: "policy.lua:1: syntax error", within: .seconds(10)) != nil, "\(messages.text)")
    }
}

@Suite struct EvalExplainTests {
    private let policy = """
    local policy = {}
    local function tier(ctx)
        return ctx.customer.attributes.tier or "none"
    end
    function policy.show_merchandising(ctx, placement)
        if placement == "store" then
            return true
        end
        return tier(ctx) ~= "gold"
    end
    function policy.features(ctx)
        local count = #ctx.customer.entitlements
        error("features are down for " .. count)
    end
    return policy
    """

    @Test func theLinesADecisionRanAreListedInOrderWithTheArguments() throws {
        let folder = try CommandRunner.policyFolder(policy)
        let result = try CommandRunner.run(["eval", folder.path, "show_merchandising", "--arg", #""home""#, "--explain", "--input", "-"],
                                           input: #"{"customer": {"attributes": {"tier": "gold"}}}"#)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "show_merchandising(ctx, placement)")
        #expect(lines.contains("  placement = \"home\""))
        #expect(lines.contains { $0.hasPrefix("  ctx = {") && $0.contains(#""tier":"gold""#) })
        #expect(lines.contains { $0.hasPrefix("→ false") })
        let ran = lines.drop { !$0.hasPrefix("lines of policy.lua") }.dropFirst()
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(ran == [
            #"6 if placement == "store" then"#,
            #"9 return tier(ctx) ~= "gold""#,
            #"3 return ctx.customer.attributes.tier or "none""#,
        ])
    }

    @Test func aFailingDecisionIsPrintedAsFailedAndExitsOne() throws {
        let folder = try CommandRunner.policyFolder(policy)
        let result = try CommandRunner.run(["eval", folder.path, "features", "--explain"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("→ failed:"))
        #expect(result.standardOutput.contains("features are down for 0"))
        #expect(result.standardOutput.contains("lines of policy.lua run, in order:"))
    }
}
