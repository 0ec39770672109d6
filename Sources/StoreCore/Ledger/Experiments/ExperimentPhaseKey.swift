/// What makes a phase record one of a kind: its experiment and phase, compared and ordered by
/// their bytes, as the ledger compares them.
struct ExperimentPhaseKey: Hashable, Sendable, Comparable {
    private let parts: [[UInt8]]

    init(_ record: ExperimentPhaseRecord) {
        parts = [Array(record.experiment.utf8), Array(record.phase.utf8)]
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.parts.lexicographicallyPrecedes(rhs.parts) { $0.lexicographicallyPrecedes($1) }
    }
}
