import Foundation

/// What a test needs from the machine — a PostgreSQL server, Apple's library, a tool — and what
/// happens when it is missing: outside CI the test skips, saying why in its condition; under CI
/// (`CI=true`, which `.ci/run` sets) it runs anyway and fails on what is missing, with the error
/// that names it, so nothing CI is meant to check passes by not running.
///
/// Files that live outside the project (`../shared/fixtures`) are not prerequisites of this kind:
/// their tests skip wherever the files are absent.
public enum TestPrerequisite {
    /// Whether this is a CI run, where no prerequisite may be missing.
    public static let isCI = ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"

    /// Whether a test that needs something runs: when it is `available`, and always under CI.
    public static func runs(_ available: Bool) -> Bool {
        available || isCI
    }
}
