import Foundation
import Testing

@Suite struct PrintedDurationCommandTests {
    private static let birds = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds")

    /// Every `"seconds"` number in `text`, as written.
    private func secondsFields(_ text: String) -> [String] {
        text.matches(of: /"seconds":([^,}]+)/).map { String($0.1) }
    }

    @Test func diffPrintsItsTimeRounded() throws {
        let text = try CommandRunner.run(["diff", Self.birds.path, Self.birds.path, "--hooks", "show_merchandising"])
        let firstLine = String(text.standardOutput.prefix { $0 != "\n" })
        #expect(firstLine.wholeMatch(of: /\d+ scenarios in (\d+ ms|\d+\.\d\d s): no decision differs/) != nil, "\(firstLine)")
        let json = try CommandRunner.run(["diff", Self.birds.path, Self.birds.path, "--json", "--hooks", "show_merchandising"])
        let fields = secondsFields(json.standardOutput)
        #expect(fields.count == 1)
        #expect(fields.allSatisfy { $0.wholeMatch(of: /\d+(\.\d{1,3})?/) != nil }, "\(fields)")
    }

    @Test func testJSONPrintsEachTestsTimeAndTheTotalRounded() throws {
        let result = try CommandRunner.run(["test", Self.birds.path, "--json"])
        #expect(result.status == 0, "\(result.standardOutput)")
        let fields = secondsFields(result.standardOutput)
        #expect(fields.count > 20, "one per test and the summary")
        #expect(fields.allSatisfy { $0.wholeMatch(of: /\d+(\.\d{1,3})?/) != nil }, "\(fields)")
    }
}
