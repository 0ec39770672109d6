import Foundation
import StoreCore

/// What an ``ExperimentReporter`` is asked for besides the time: one experiment or all, an
/// extra horizon, the revenue cap, the exchange rates and the customers a result needs.
public struct ExperimentReportOptions: Sendable, Hashable {
    /// The percentile revenue is capped at unless asked otherwise.
    public static let defaultRevenueCapPercentile = 99.0
    /// The fewest matured customers per variant a horizon's figures need to count as a result
    /// unless asked otherwise.
    public static let defaultMinimumCustomersPerVariant = 100

    /// The experiment to report, or nil for every experiment the policy or the ledger knows.
    public var experiment: String?
    /// A horizon in days to report besides ``ExperimentReport/standardHorizons``.
    public var horizonDays: Int?
    /// The percentile of net revenue per customer each currency is capped at.
    public var revenueCapPercentile: Double
    /// The rates that put revenue in one currency, or nil to report each currency.
    public var rates: ExperimentCurrencyRates?
    /// The fewest matured customers per variant a horizon's figures need to count as a result.
    public var minimumCustomersPerVariant: Int

    /// Describes a report's options.
    public init(experiment: String? = nil, horizonDays: Int? = nil, revenueCapPercentile: Double = defaultRevenueCapPercentile,
                rates: ExperimentCurrencyRates? = nil, minimumCustomersPerVariant: Int = defaultMinimumCustomersPerVariant) {
        self.experiment = experiment
        self.horizonDays = horizonDays
        self.revenueCapPercentile = revenueCapPercentile
        self.rates = rates
        self.minimumCustomersPerVariant = minimumCustomersPerVariant
    }

    /// The horizons reported, the shortest first.
    public var horizons: [Int] {
        Set(ExperimentReport.standardHorizons + (horizonDays.map { [$0] } ?? [])).sorted()
    }
}

/// Why an experiment report cannot be made.
public enum ExperimentReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Neither the serving policy nor the ledger knows the experiment asked for.
    case unknownExperiment(String, known: [String])

    /// The failure, in a sentence.
    public var description: String {
        switch self {
        case .unknownExperiment(let name, let known):
            let list = known.isEmpty ? "none" : known.joined(separator: ", ")
            return "no experiment named \(name) in the policy or the ledger (known: \(list))"
        }
    }
}
