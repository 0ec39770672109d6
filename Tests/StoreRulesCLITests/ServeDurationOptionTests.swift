import Foundation
import Testing

/// `serve`'s durations, a count and a unit letter: another unit, a count that is not a positive
/// whole number, or one too long to count in seconds is a usage error naming the option, and
/// nothing starts.
@Suite struct ServeDurationOptionTests {
    static func serve(_ extra: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(
            ["serve", UsageErrorStatusTests.birds, "--ledger", FileManager.default.temporaryDirectory.appending(path: "unused-\(UUID()).sqlite").path,
             "--environment", "Xcode", "--bundle-id", "com.example.backyardbirds", "--insecure-no-auth", "--listen", "127.0.0.1:0"] + extra)
    }

    @Test("a duration in another unit, not positive, or past what seconds count is refused with the option's own words",
          arguments: [["--reconcile-every", "3d"], ["--reconcile-every", "99999999999999999h"], ["--reconcile-every", "0s"],
                      ["--events-give-up-after", "30s"], ["--events-give-up-after", "99999999999999999d"],
                      ["--events-give-up-after", "-2h"], ["--events-give-up-after", "2H"]])
    func refused(_ option: [String]) throws {
        let extra = option[0] == "--events-give-up-after"
            ? ["--events-url", "http://127.0.0.1:9/", "--events-secret", "/nonexistent"] + option : option
        let result = try Self.serve(extra)
        #expect(result.status == 64, "a usage error: \(result.standardError)")
        #expect(result.standardError.contains("\(option[0]) must be a whole number of"), "\(result.standardError)")
        #expect(result.standardError.contains("not '\(option[1])'"), "\(result.standardError)")
    }
}
