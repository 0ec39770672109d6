/// What makes an exposure one of a kind in the ledger: its customer, experiment and phase,
/// compared and ordered by their bytes, as the ledger compares them (the order is the one
/// writers take their rows in), so two names Swift holds equal but spelled in other bytes stay
/// apart.
public struct ExperimentExposureKey: Hashable, Sendable, Comparable {
    private let parts: [[UInt8]]

    /// The key of an exposure with these fields.
    public init(customerID: String, experiment: String, phase: String) {
        parts = [Array(customerID.utf8), Array(experiment.utf8), Array(phase.utf8)]
    }

    /// The key of `exposure`.
    public init(_ exposure: ExperimentExposure) {
        self.init(customerID: exposure.customerID, experiment: exposure.experiment, phase: exposure.phase)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.parts.lexicographicallyPrecedes(rhs.parts) { $0.lexicographicallyPrecedes($1) }
    }
}
