import StoreCore
import StorePolicy

extension Service {
    /// Records the exposures a decision read before the decision is shown, outside any rule:
    /// the ledger keeps one per customer, experiment and phase, so the first instance to record
    /// one wins and later ones read it back.
    ///
    /// - Returns: whether the ledger holds the variants decided; false when another writer
    ///   recorded a different one first, and the decision must be made again on what it holds.
    /// - Throws: ``ServiceError/ledger(_:)`` when the ledger cannot take the write: no customer
    ///   sees a variant that was not recorded.
    func recordExposures(_ exposures: [ExperimentExposure]) throws(ServiceError) -> Bool {
        guard !exposures.isEmpty else { return true }
        let declarations = engine.experiments
        let now = clock()
        var phases: [ExperimentPhaseRecord] = []
        for exposure in exposures where !phases.contains(where: { $0.experiment == exposure.experiment && $0.phase == exposure.phase }) {
            if let declaration = declarations[exposure.experiment], declaration.phase == exposure.phase {
                phases.append(declaration.phaseRecord(at: now))
            }
        }
        let stored: [ExperimentExposure]
        do {
            stored = try ledger.recordExposures(exposures, phases: phases)
        } catch {
            throw .ledger(error)
        }
        return exposures.allSatisfy { decided in
            stored.contains { $0.experiment == decided.experiment && $0.phase == decided.phase && $0.variant == decided.variant }
        }
    }
}
