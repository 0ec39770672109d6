import Foundation
import StoreBench

extension BenchCommand {
    /// The HTTP section: what ran, or why it did not.
    struct HTTPSection: Encodable {
        var runs: [HTTPBenchFigures] = []
        var skipped: String?

        private enum CodingKeys: String, CodingKey {
            case runs = "http", skipped = "http_skipped"
        }
    }

    /// Loads `storerules serve` (this binary) with wrk for `seconds` per run, or says why not.
    static func measureHTTP(seconds: Int, folder: URL?, postgresURL: String?) -> HTTPSection {
        guard seconds > 0 else { return HTTPSection(skipped: "--http-seconds 0") }
        guard WrkRun.executable != nil else { return HTTPSection(skipped: "wrk is not installed (apt install wrk)") }
        guard let executable = Bundle.main.executableURL else { return HTTPSection(skipped: "this binary's path is unknown") }
        let folder = folder ?? ServiceLoadTest.exampleFolder
        do {
            let bench = try HTTPBench(executable: executable, folder: folder, seconds: seconds)
            defer { bench.cleanUp() }
            return HTTPSection(runs: try bench.run(postgresURL: postgresURL))
        } catch {
            return HTTPSection(skipped: "failed: \(error)")
        }
    }

    /// The HTTP lines of the table.
    static func httpTable(_ section: HTTPSection) -> String {
        guard !section.runs.isEmpty else { return "storerules serve under wrk: skipped (\(section.skipped ?? "not run"))" }
        let header = """
        storerules serve under wrk (\(HTTPBench.connections) connections from a second process; goals: \
        ≥ \(Int(HTTPBenchFigures.storefrontGoal)) storefront GETs/s with p99 ≤ \(Int(HTTPBenchFigures.storefrontP99GoalMilliseconds)) ms, \
        ≥ \(Int(HTTPBenchFigures.notificationGoal)) notification ingests/s)
          ledger      instances  storefront GETs/s   p50 ms   p99 ms   notifications/s   p50 ms   p99 ms   non-2xx
        """
        let rows = section.runs.map { run in
            "  " + run.ledger.padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(format: " %9d %18.0f %8.2f %8.2f %17.0f %8.2f %8.2f %9d", run.instances,
                   run.storefront.requestsPerSecond, run.storefront.p50Milliseconds, run.storefront.p99Milliseconds,
                   run.notifications.requestsPerSecond, run.notifications.p50Milliseconds, run.notifications.p99Milliseconds,
                   run.storefront.non2xxResponses + run.notifications.non2xxResponses)
                + (run.notificationsRepeated ? " (notifications ran out and repeated)" : "")
        }
        return ([header] + rows).joined(separator: "\n")
    }
}
