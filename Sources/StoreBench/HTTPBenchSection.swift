import Foundation

/// The HTTP section of `storerules bench`: what ran under wrk, or why it did not.
public struct HTTPBenchSection: Sendable, Encodable {
    /// One run per ledger and number of instances.
    public var runs: [HTTPBenchFigures] = []
    /// Why the section did not run.
    public var skipped: String?

    private enum CodingKeys: String, CodingKey {
        case runs = "http", skipped = "http_skipped"
    }

    /// Loads `storerules serve` (this binary) serving `folder` (by default the Backyard Birds
    /// example) with wrk for `seconds` per run, on SQLite and, when `postgresURL` names a
    /// server, on PostgreSQL; or says why not. A failure is recorded as the reason it was skipped.
    public static func measure(seconds: Int, folder: URL?, postgresURL: String?) -> HTTPBenchSection {
        guard seconds > 0 else { return HTTPBenchSection(skipped: "--http-seconds 0") }
        guard WrkRun.executable != nil else { return HTTPBenchSection(skipped: "wrk is not installed (apt install wrk)") }
        guard let executable = Bundle.main.executableURL else { return HTTPBenchSection(skipped: "this binary's path is unknown") }
        let folder = folder ?? ServiceLoadTest.exampleFolder
        do {
            let bench = try HTTPBench(executable: executable, folder: folder, seconds: seconds)
            defer { bench.cleanUp() }
            return HTTPBenchSection(runs: try bench.run(postgresURL: postgresURL))
        } catch {
            return HTTPBenchSection(skipped: "failed: \(error)")
        }
    }
}
