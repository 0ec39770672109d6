import Foundation

/// The service section of `storerules bench`: the figures of a ``ServiceLoadTest``, or why it
/// was skipped.
public struct ServiceLoadTestSection: Sendable, Encodable {
    /// Requests sent, the reload not counted.
    public var requests: Int?
    /// Replies per second.
    public var requestsPerSecond: Double?
    /// The median latency, in milliseconds.
    public var p50Milliseconds: Double?
    /// The 99th-percentile latency, in milliseconds.
    public var p99Milliseconds: Double?
    /// Requests whose reply was an error, or that were granted other than once.
    public var failedRequests: Int?
    /// The first failed reply, when a request failed.
    public var firstFailure: String?
    /// Why the load test did not run.
    public var skipped: String?

    enum CodingKeys: String, CodingKey {
        case requests = "service_requests"
        case requestsPerSecond = "service_requests_per_second"
        case p50Milliseconds = "service_p50_ms"
        case p99Milliseconds = "service_p99_ms"
        case failedRequests = "service_failed_requests"
        case firstFailure = "service_first_failure"
        case skipped = "service_skipped"
    }

    /// Load-tests the `PolicyService` binary beside this one serving `folder` (by default the
    /// Backyard Birds example) with a stream of `requests` requests, or says why it cannot.
    ///
    /// - Throws: ``BenchFailure`` when the load test ran and failed.
    public static func measure(folder: URL?, requests: Int) throws -> ServiceLoadTestSection {
        guard let executable = ServiceLoadTest.executableBesideThisOne() else {
            return ServiceLoadTestSection(
                skipped: "no PolicyService binary beside storerules; build it with swift build --product PolicyService (-c release for these figures)")
        }
        let folder = folder ?? ServiceLoadTest.exampleFolder
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("policy.lua").path) else {
            return ServiceLoadTestSection(skipped: "the Backyard Birds example is not at \(folder.path); pass --service-folder DIR")
        }
        let service = try ServiceLoadTest(executable: executable, folder: folder, requestCount: requests).run()
        return ServiceLoadTestSection(
            requests: service.requests, requestsPerSecond: service.requestsPerSecond,
            p50Milliseconds: service.p50Milliseconds, p99Milliseconds: service.p99Milliseconds,
            failedRequests: service.failedRequests, firstFailure: service.firstFailure)
    }
}
