import Foundation
import StoreService
import Testing

/// The alert rules in deploy/prometheus and the dashboard in deploy/grafana name only metrics
/// `GET /metrics` exports: a rule over a metric that does not exist would never fire.
@Suite struct DeployedMetricNameTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every metric the alert rules and the dashboard name is a family GET /metrics exports")
    func deployedMetricsAreExported() throws {
        let rules = try Self.files(in: "deploy/prometheus", endingIn: ".yml").filter { !$0.lastPathComponent.hasSuffix(".test.yml") }
        let dashboards = try Self.files(in: "deploy/grafana", endingIn: ".json")
        #expect(!rules.isEmpty && !dashboards.isEmpty, "the rules and the dashboard are read from \(Self.packageRoot.path)/deploy")

        let families = try Self.exportedFamilies()
        for file in rules + dashboards {
            let names = Self.metricNames(in: try String(contentsOf: file, encoding: .utf8))
            #expect(!names.isEmpty, "\(file.lastPathComponent) names no metric")
            for name in names.sorted() {
                #expect(Self.family(of: name, in: families) != nil,
                        "\(file.lastPathComponent) names \(name), which GET /metrics does not export (families: \(families.keys.sorted()))")
            }
        }
    }

    /// The family a name in a rule or a panel is a sample of: itself, or the histogram whose
    /// `_bucket`, `_sum` or `_count` it is; nil when `families` has none.
    static func family(of name: String, in families: [String: String]) -> String? {
        if families[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let histogram = String(name.dropLast(suffix.count))
            if families[histogram] == "histogram" { return histogram }
        }
        return nil
    }

    /// Every `storerules_…` name in `text`.
    static func metricNames(in text: String) -> Set<String> {
        Set(text.matches(of: #/storerules_[a-z_]+/#).map { String($0.output) })
    }

    /// The files of a folder of the package whose names end in `suffix`.
    static func files(in folder: String, endingIn suffix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: packageRoot.appending(path: folder), includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(suffix) }
    }

    /// Each family's type, from the `# TYPE` lines `GET /metrics` answers once the service has
    /// recorded every kind of sample it counts, served TLS, trusted a root and recorded outgoing events.
    static func exportedFamilies() throws -> [String: String] {
        try RouterTestService.test(configure: { $0.recordsOutgoingEvents = true }) { service in
            let metrics = service.router.metrics
            metrics.recordRequest(route: "/v1/notifications", method: "POST", status: 503, seconds: 0.02)
            metrics.recordDecision(hook: "features", source: "fallback")
            metrics.recordVerification(kind: "notification", status: "OK")
            metrics.recordIngest(kind: "notification", outcome: "pending")
            metrics.recordReload(result: "failure")
            metrics.recordReconciliation(.success)
            metrics.recordConnectionRefusal(cap: "server")
            metrics.recordTLSCertificate(service.authority.leafCertificate)
            let exposition = service.respond("GET", "/metrics", key: RouterTestService.adminKey).bodyText
            var families: [String: String] = [:]
            for line in exposition.split(separator: "\n") where line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                families[String(parts[2])] = String(parts[3])
            }
            return families
        }
    }
}
