import CommandLineOptions
import Foundation
import StoreBench
import StorePolicy

/// What `storerules bench --json` prints: one object holding the figures of every section
/// measured, side by side.
struct BenchReport: Encodable {
    /// The decision figures.
    var decisions: DecisionBenchFigures?
    /// The policy engine's storefront, reload and memory figures.
    var policy: PolicyBenchFigures?
    /// The signed-data figures.
    var signedData: SignedDataBenchFigures?
    /// The App Store Server API client's figures.
    var appStoreAPI: AppStoreAPIBenchFigures?
    /// The service load test's figures, or why it was skipped.
    var service: ServiceLoadTestSection?
    /// The ledger's figures.
    var ledger: LedgerBenchFigures?
    /// The HTTP service's figures under wrk.
    var http: HTTPBenchSection?
    /// The experiments' figures: storefronts with and without one, the report at scale.
    var experiments: ExperimentBenchSection?
    /// Subscription metrics over a ledger filled at scale.
    var metrics: SubscriptionMetricsBenchSection?
    /// Outgoing events: what recording them costs ingests, and how fast they are delivered.
    var events: OutgoingEventBenchSection?

    /// Encodes every set of figures into one object.
    func encode(to encoder: any Encoder) throws {
        try decisions?.encode(to: encoder)
        try policy?.encode(to: encoder)
        try service?.encode(to: encoder)
        try signedData?.encode(to: encoder)
        try appStoreAPI?.encode(to: encoder)
        try ledger?.encode(to: encoder)
        try http?.encode(to: encoder)
        try experiments?.encode(to: encoder)
        try metrics?.encode(to: encoder)
        try events?.encode(to: encoder)
        let ratios = CrossSectionRatios(ledger: ledger, http: http)
        if !ratios.isEmpty { try ratios.encode(to: encoder) }
    }
}

/// The sections `storerules bench --sections` names.
enum BenchSection: String, CaseIterable {
    case decisions
    case policy
    case signedData = "signed-data"
    case appStoreAPI = "app-store-api"
    case ledger
    case service
    case http
    case experiments
    case metrics
    case events

    /// The sections a `--sections` list names, or all of them without one.
    static func parse(_ list: String?) throws(UsageError) -> Set<BenchSection> {
        guard let list else { return Set(allCases) }
        var sections = Set<BenchSection>()
        for name in list.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let section = BenchSection(rawValue: name) else {
                let hint = NearestName.nearest(to: name, in: allCases.map(\.rawValue)).map { " (did you mean '\($0)'?)" } ?? ""
                throw UsageError("--sections: unknown section '\(name)'\(hint); known: "
                                 + allCases.map(\.rawValue).joined(separator: ", "))
            }
            sections.insert(section)
        }
        return sections
    }
}
