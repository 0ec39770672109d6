/// What makes a phase record one of a kind: its experiment and phase, ordered byte by byte.
struct ExperimentPhaseKey: Hashable, Sendable, Comparable {
    let experiment: String
    let phase: String

    init(_ record: ExperimentPhaseRecord) {
        experiment = record.experiment
        phase = record.phase
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        [lhs.experiment, lhs.phase].lexicographicallyPrecedes([rhs.experiment, rhs.phase]) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
