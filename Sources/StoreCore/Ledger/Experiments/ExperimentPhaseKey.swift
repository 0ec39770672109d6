/// What makes a phase record one of a kind: its experiment and phase, compared and ordered
/// byte by byte, as the ledger compares them.
struct ExperimentPhaseKey: Hashable, Sendable, Comparable {
    let experiment: String
    let phase: String

    init(_ record: ExperimentPhaseRecord) {
        experiment = record.experiment
        phase = record.phase
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.experiment.utf8.elementsEqual(rhs.experiment.utf8) && lhs.phase.utf8.elementsEqual(rhs.phase.utf8)
    }

    func hash(into hasher: inout Hasher) {
        for part in [experiment, phase] {
            hasher.combine(part.utf8.count)
            for byte in part.utf8 { hasher.combine(byte) }
        }
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        [lhs.experiment, lhs.phase].lexicographicallyPrecedes([rhs.experiment, rhs.phase]) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
