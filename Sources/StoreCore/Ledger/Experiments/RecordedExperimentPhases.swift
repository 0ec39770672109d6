import Synchronization

/// The experiment phases a ledger has seen stored, so that a customer's first exposure to a
/// running phase writes its exposure alone: a phase record is written once, and the exposures
/// of that phase after it need not ask again. Nothing deletes a phase record, so a phase once
/// stored stays so; at most ``capacity`` phases are kept, after which the set starts again.
final class RecordedExperimentPhases: Sendable {
    /// The most phases kept; a policy declares a handful.
    static let capacity = 1_024

    private let phases = Mutex<Set<ExperimentPhaseKey>>([])

    /// The records of `records` not yet seen stored.
    func unrecorded(_ records: [ExperimentPhaseRecord]) -> [ExperimentPhaseRecord] {
        phases.withLock { seen in records.filter { !seen.contains(ExperimentPhaseKey($0)) } }
    }

    /// Notes that `records` are stored: their write committed.
    func noteStored(_ records: [ExperimentPhaseRecord]) {
        guard !records.isEmpty else { return }
        phases.withLock { seen in
            if seen.count + records.count > Self.capacity { seen.removeAll() }
            for record in records { seen.insert(ExperimentPhaseKey(record)) }
        }
    }
}
