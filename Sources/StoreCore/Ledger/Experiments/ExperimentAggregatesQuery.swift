import Foundation
import SignedData

/// What ``Ledger/experimentAggregates(experiment:phase:horizonDays:asOf:revenueCapPercentile:rates:)``
/// is asked, checked: the phase, the horizon, the time the report is as of, the revenue cap's
/// percentile and the exchange rates, if any.
public struct ExperimentAggregatesQuery: Hashable, Sendable {
    /// The longest horizon, in days: ten years.
    public static let maximumHorizonDays = 3650

    /// The experiment.
    public let experiment: String
    /// The phase.
    public let phase: String
    /// The horizon in days, 1 to ``maximumHorizonDays``.
    public let horizonDays: Int
    /// The time the report is as of.
    public let asOf: Date
    /// The percentile revenue is capped at: above 0, at most 100.
    public let revenueCapPercentile: Double
    /// The rates revenue is converted with, or nil to report each currency.
    public let rates: ExperimentCurrencyRates?

    /// The query, when its parts follow the rules.
    ///
    /// - Throws: ``LedgerError/invalidExperiment(_:)`` for a bad name, horizon, percentile or rate.
    public init(experiment: String, phase: String, horizonDays: Int, asOf: Date, revenueCapPercentile: Double,
                rates: ExperimentCurrencyRates?) throws(LedgerError) {
        try ExperimentNameRule.check(experiment, "the experiment of a report")
        try ExperimentNameRule.check(phase, "the phase of a report")
        guard (1...Self.maximumHorizonDays).contains(horizonDays) else {
            throw .invalidExperiment("the horizon is \(horizonDays) days; it is 1 to \(Self.maximumHorizonDays) days")
        }
        guard revenueCapPercentile.isFinite, revenueCapPercentile > 0, revenueCapPercentile <= 100 else {
            throw .invalidExperiment("the revenue cap's percentile is \(revenueCapPercentile); it is above 0 and at most 100")
        }
        try rates?.validated()
        self.experiment = experiment
        self.phase = phase
        self.horizonDays = horizonDays
        self.asOf = asOf
        self.revenueCapPercentile = revenueCapPercentile
        self.rates = rates
    }

    /// The horizon in milliseconds.
    public var horizonMilliseconds: Int64 { Int64(horizonDays) * 86_400_000 }

    /// The latest first exposure whose window has ended by ``asOf``, in epoch milliseconds.
    public var latestMaturedExposure: Int64 { asOf.millisecondsSince1970 - horizonMilliseconds }

    /// The nearest rank of the cap among `customers` values sorted from the smallest:
    /// ⌈percentile × customers / 100⌉, at least 1.
    public func capRank(customers: Int) -> Int {
        max(1, Int((revenueCapPercentile * Double(customers) / 100).rounded(.up)))
    }
}
