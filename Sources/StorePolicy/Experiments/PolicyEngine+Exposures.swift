import Foundation
import StoreCore

extension PolicyEngine {
    /// What the policy that decided declared of each phase `exposures` name (the serving one,
    /// or an earlier version the engine served), as the ledger keeps it beside them, first
    /// recorded at `date`.
    public func phaseRecords(for exposures: [ExperimentExposure], at date: Date) -> [ExperimentPhaseRecord] {
        var records: [ExperimentPhaseRecord] = []
        for exposure in exposures where !records.contains(where: { $0.experiment == exposure.experiment && $0.phase == exposure.phase }) {
            if let declaration = servedDeclaration(of: exposure.experiment, phase: exposure.phase) {
                records.append(declaration.phaseRecord(at: date))
            }
        }
        return records
    }

    /// Records `exposures`, a decision's first reads of variants, in `ledger` with their
    /// phases, outside any rule and before the decision is shown.
    ///
    /// - Returns: whether the ledger holds the variants decided: false when another writer
    ///   recorded a different one first, and the decision must be made again on what it holds.
    /// - Throws: what ``StoreCore/Ledger/recordExposures(_:phases:)`` throws.
    public func record(_ exposures: [ExperimentExposure], in ledger: Ledger, at date: Date) throws -> Bool {
        guard !exposures.isEmpty else { return true }
        let stored = try ledger.recordExposures(exposures, phases: phaseRecords(for: exposures, at: date))
        return exposures.allSatisfy { decided in
            stored.contains { $0.experiment == decided.experiment && $0.phase == decided.phase && $0.variant == decided.variant }
        }
    }
}
