/// What makes an exposure one of a kind in the ledger: its customer, experiment and phase,
/// compared and ordered byte by byte, as the ledger compares them (the order is the one writers
/// take their rows in), so two names Swift holds equal but spelled in other bytes stay apart.
public struct ExperimentExposureKey: Hashable, Sendable, Comparable {
    /// The customer exposed.
    public let customerID: String
    /// The experiment's name.
    public let experiment: String
    /// The experiment's phase.
    public let phase: String

    /// The key of an exposure with these fields.
    public init(customerID: String, experiment: String, phase: String) {
        self.customerID = customerID
        self.experiment = experiment
        self.phase = phase
    }

    /// The key of `exposure`.
    public init(_ exposure: ExperimentExposure) {
        self.init(customerID: exposure.customerID, experiment: exposure.experiment, phase: exposure.phase)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.customerID.utf8.elementsEqual(rhs.customerID.utf8) && lhs.experiment.utf8.elementsEqual(rhs.experiment.utf8)
            && lhs.phase.utf8.elementsEqual(rhs.phase.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        for part in [customerID, experiment, phase] {
            hasher.combine(part.utf8.count)
            for byte in part.utf8 { hasher.combine(byte) }
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        [lhs.customerID, lhs.experiment, lhs.phase].lexicographicallyPrecedes([rhs.customerID, rhs.experiment, rhs.phase]) {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }
}
