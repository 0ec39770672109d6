import Foundation
import SignedData

/// What ``Ledger/experimentAggregates(experiment:phase:horizons:asOf:revenueCapPercentile:rates:)``
/// is asked, checked: the phase, the horizons, the time the report is as of, the revenue cap's
/// percentile and the exchange rates, if any.
public struct ExperimentAggregatesQuery: Hashable, Sendable {
    /// The longest horizon, in days: ten years.
    public static let maximumHorizonDays = 3650

    /// The experiment.
    public let experiment: String
    /// The phase.
    public let phase: String
    /// The horizons in days, each 1 to ``maximumHorizonDays``: at least one, none twice,
    /// the shortest first.
    public let horizons: [Int]
    /// The time the report is as of.
    public let asOf: Date
    /// The percentile revenue is capped at: above 0, at most 100.
    public let revenueCapPercentile: Double
    /// The rates revenue is converted with, or nil to report each currency.
    public let rates: ExperimentCurrencyRates?

    /// The query, when its parts follow the rules.
    ///
    /// The horizons are taken in order from the shortest, each once.
    ///
    /// - Throws: ``LedgerError/invalidExperiment(_:)`` for a bad name, horizon, percentile or
    ///   rate, or no horizon.
    public init(experiment: String, phase: String, horizons: [Int], asOf: Date, revenueCapPercentile: Double,
                rates: ExperimentCurrencyRates?) throws(LedgerError) {
        try ExperimentNameRule.check(experiment, "the experiment of a report")
        try ExperimentNameRule.check(phase, "the phase of a report")
        guard !horizons.isEmpty else { throw .invalidExperiment("a report needs at least one horizon") }
        for days in horizons where !(1...Self.maximumHorizonDays).contains(days) {
            throw .invalidExperiment("the horizon is \(days) days; it is 1 to \(Self.maximumHorizonDays) days")
        }
        guard revenueCapPercentile.isFinite, revenueCapPercentile > 0, revenueCapPercentile <= 100 else {
            throw .invalidExperiment("the revenue cap's percentile is \(revenueCapPercentile); it is above 0 and at most 100")
        }
        try rates?.validated()
        self.experiment = experiment
        self.phase = phase
        self.horizons = Set(horizons).sorted()
        self.asOf = asOf
        self.revenueCapPercentile = revenueCapPercentile
        self.rates = rates
    }

    /// A horizon of `days` in milliseconds.
    public static func milliseconds(ofHorizon days: Int) -> Int64 { Int64(days) * 86_400_000 }

    /// The latest first exposure whose window of `days` has ended by ``asOf``, in epoch
    /// milliseconds.
    public func latestMaturedExposure(horizon days: Int) -> Int64 {
        asOf.millisecondsSince1970 - Self.milliseconds(ofHorizon: days)
    }

    /// The longest horizon in milliseconds: every window lies within that long from its start.
    public var longestHorizonMilliseconds: Int64 { Self.milliseconds(ofHorizon: horizons.last!) }

    /// The latest first exposure matured for the shortest horizon: no customer exposed later
    /// is matured for any.
    public var latestExposureMaturedForAny: Int64 { latestMaturedExposure(horizon: horizons[0]) }

    /// The nearest rank of the cap among `customers` values sorted from the smallest:
    /// ⌈percentile × customers / 100⌉, at least 1.
    public func capRank(customers: Int) -> Int {
        max(1, Int((revenueCapPercentile * Double(customers) / 100).rounded(.up)))
    }
}
