import Foundation
import Testing

/// What the command line says about input it cannot use, and how a piped REPL session ends.
@Suite struct PolicyInputErrorTests {
    @Test("eval names the field of a context value it cannot use, never Foundation's sentence")
    func evalNamesTheField() throws {
        let result = try CommandRunner.run(["eval", "Examples/BackyardBirds", "features", "--input", "-"],
                                           input: #"{"customer":{"balances":{"credit":1.5}}}"#)
        #expect(result.status == 1)
        #expect(result.standardError == "storerules eval: the context is not valid: customer.balances.credit: expected a whole number, found 1.5\n")
    }

    @Test("eval refuses a mistyped field and suggests the one meant, and takes the environment in any letter case")
    func evalRefusesUnknownFields() throws {
        let mistyped = try CommandRunner.run(["eval", "Examples/BackyardBirds", "features", "--input", "-"], input: #"{"custommer":{}}"#)
        #expect(mistyped.status == 1)
        #expect(mistyped.standardError.contains("unknown field 'custommer' at the top level; did you mean 'customer'?"), "\(mistyped.standardError)")
        let sandbox = try CommandRunner.run(["eval", "Examples/BackyardBirds", "features", "--input", "-"], input: #"{"environment":"Sandbox"}"#)
        #expect(sandbox.status == 0, "\(sandbox.standardError)")
        #expect(sandbox.standardOutput.contains(#""environment":"sandbox""#))
    }

    @Test("eval refuses a context too large for its integers and nested too deep, without crashing")
    func evalSurvivesHostileInput() throws {
        for input in [#"{"now":1e300}"#, String(repeating: "[", count: 100_000), #"{"customer":{"id":"\ud800"}}"#] {
            let result = try CommandRunner.run(["eval", "Examples/BackyardBirds", "features", "--input", "-"], input: input)
            #expect(result.status == 1)
            #expect(result.standardError.hasPrefix("storerules eval: the context is not valid: "), "\(result.standardError)")
        }
    }

    @Test("eval --jsonl answers a bad request line with its path and keeps serving")
    func jsonlNamesTheField() throws {
        let result = try CommandRunner.run(["eval", "Examples/BackyardBirds", "--jsonl"],
                                           input: "{\"hook\":\"features\",\"ctx\":{\"now\":1e300}}\n{\"hook\":\"features\"}\n")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.contains("ctx.now: expected epoch seconds") == true, "\(lines)")
        #expect(lines.last?.hasPrefix(#"{"hook":"features""#) == true)
    }

    @Test("run names the step and the field a journey mistypes")
    func runNamesTheStep() throws {
        let catalog = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds/Products.storekit"), encoding: .utf8)
        let journey = #"{"steps":[{"action":"storefront"},{"action":"purchase","product":"pellet.box","quantiy":2}]}"#
        let folder = try CommandRunner.policyFolder("return {}", files: ["Products.storekit": catalog, "journey.json": journey])
        let result = try CommandRunner.run(["run", folder.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("journey.json: steps[1]: unknown field 'quantiy'; did you mean 'quantity'?"), "\(result.standardError)")
    }

    @Test("a piped REPL session exits 1 when a line failed and 0 when none did")
    func replExitStatus() throws {
        let failing = try CommandRunner.run(["repl", "Examples/BackyardBirds"], input: "1 + 1\nexpect_eq(1, 2)\n2 + 2\n")
        #expect(failing.status == 1)
        #expect(failing.standardOutput == "2\nruntime error at input:1: expected 1, got 2\n4\n")
        let passing = try CommandRunner.run(["repl", "Examples/BackyardBirds"], input: "expect_eq(2, 1 + 1)\n:quit\n")
        #expect(passing.status == 0, "\(passing.standardOutput)")
    }
}
