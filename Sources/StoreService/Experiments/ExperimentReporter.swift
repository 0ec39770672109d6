import Foundation
import StoreCore
import StorePolicy
import StoreStatistics

/// Makes an ``ExperimentReport`` from a ledger and the serving policy's declarations: every
/// phase the ledger recorded exposures for (its weights from the ledger's phase record), and
/// the declared phase when the ledger has none yet. The ledger aggregates every horizon of a
/// phase in the database in one read; StoreStatistics turns the aggregates into intervals and p-values.
public struct ExperimentReporter: Sendable {
    /// The ledger the exposures and transactions are read from.
    public let ledger: Ledger
    /// The serving policy's experiments, by name.
    public let declarations: [String: ExperimentDeclaration]

    /// A reporter over `ledger` for the policy declaring `declarations`.
    public init(ledger: Ledger, declarations: [String: ExperimentDeclaration]) {
        self.ledger = ledger
        self.declarations = declarations
    }

    /// The report as of `asOf`.
    ///
    /// - Throws: ``ExperimentReportError/unknownExperiment(_:known:)`` for an experiment
    ///   neither the policy nor the ledger knows; ``LedgerError`` for a bad horizon, percentile
    ///   or rate, or a storage failure.
    public func report(asOf: Date, options: ExperimentReportOptions = ExperimentReportOptions()) throws -> ExperimentReport {
        let records = try ledger.experimentPhases(experiment: nil)
        let known = Set(declarations.keys).union(records.map(\.experiment)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let names: [String]
        if let asked = options.experiment {
            guard known.contains(asked) else { throw ExperimentReportError.unknownExperiment(asked, known: known) }
            names = [asked]
        } else {
            names = known
        }
        let experiments = try names.map { name in
            let declaration = declarations[name]
            var phases = try records.filter { $0.experiment == name }.map { record in
                try phase(of: name, phase: record.phase, weights: record.variants, traffic: record.traffic, source: .ledger,
                          isServing: record.phase == declaration?.phase, asOf: asOf, options: options)
            }
            if let declaration, !phases.contains(where: { $0.phase == declaration.phase }) {
                phases.append(try phase(of: name, phase: declaration.phase, weights: declaration.variants, traffic: declaration.traffic,
                                        source: .policy, isServing: true, asOf: asOf, options: options))
            }
            return ExperimentReport.Experiment(name: name, isDeclared: declaration != nil, phases: phases)
        }
        return ExperimentReport(asOf: asOf, revenueCapPercentile: options.revenueCapPercentile, targetCurrency: options.rates?.targetCurrency,
                                minimumCustomersPerVariant: options.minimumCustomersPerVariant, alpha: ExperimentMetricComparer.alpha,
                                experiments: experiments)
    }

    /// One phase: the split and its check, then each horizon's figures, with the notes they call for.
    private func phase(of experiment: String, phase: String, weights: [ExperimentVariantWeight], traffic: Int,
                       source: ExperimentReport.Phase.WeightsSource, isServing: Bool, asOf: Date,
                       options: ExperimentReportOptions) throws -> ExperimentReport.Phase {
        let aggregates = try ledger.experimentAggregates(experiment: experiment, phase: phase, horizons: options.horizons, asOf: asOf,
                                                         revenueCapPercentile: options.revenueCapPercentile, rates: options.rates)
        let phaseFacts = aggregates[0]
        let exposed = Dictionary(uniqueKeysWithValues: phaseFacts.variants.map { ($0.variant, $0.exposedCustomers) })
        let declared = Dictionary(uniqueKeysWithValues: weights.map { ($0.name, $0.weight) })
        let variantNames = Set(declared.keys).union(exposed.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let totalWeight = weights.reduce(0) { $0 + $1.weight }
        let totalExposed = exposed.values.reduce(0, +)
        let variants = variantNames.map { name in
            ExperimentReport.VariantExposure(
                variant: name, weight: declared[name] ?? 0,
                expectedShare: totalWeight > 0 ? Double(declared[name] ?? 0) / Double(totalWeight) : 0,
                exposedCustomers: exposed[name] ?? 0,
                observedShare: totalExposed > 0 ? Double(exposed[name] ?? 0) / Double(totalExposed) : 0)
        }
        let sampleRatio = ExperimentReport.SampleRatioCheck(pValue: SampleRatioMismatch.pValue(
            counts: variants.map(\.exposedCustomers), weights: variants.map { Double($0.weight) }))
        var notes = ExperimentHealthChecks.phaseNotes(sampleRatio: sampleRatio, facts: phaseFacts, variantNames: variantNames)
        let weighted = variants.filter { $0.weight > 0 }.map(\.variant)
        let horizons = aggregates.map { horizon in
            let fewest = weighted.map { name in horizon.variants.first { $0.variant == name }?.maturedCustomers ?? 0 }.min() ?? 0
            let enough = fewest >= options.minimumCustomersPerVariant
            if !enough {
                notes.append(ExperimentHealthChecks.tooFewCustomers(horizonDays: horizon.horizonDays, fewest: fewest,
                                                                    threshold: options.minimumCustomersPerVariant))
            }
            return ExperimentReport.Horizon(
                days: horizon.horizonDays,
                maturedCustomers: Dictionary(uniqueKeysWithValues: horizon.variants.map { ($0.variant, $0.maturedCustomers) }),
                isTrustworthy: enough && !sampleRatio.isMismatch, revenueCaps: horizon.revenueCaps,
                currenciesLeftOut: horizon.currenciesLeftOut, metrics: ExperimentMetricComparer.metrics(of: horizon))
        }
        return ExperimentReport.Phase(
            phase: phase, isServing: isServing, weightsSource: source, traffic: traffic, firstExposure: phaseFacts.firstExposureDate,
            lastExposure: phaseFacts.lastExposureDate, variants: variants, sampleRatio: sampleRatio,
            policyVersions: phaseFacts.policyVersions, notes: notes, horizons: horizons)
    }
}
