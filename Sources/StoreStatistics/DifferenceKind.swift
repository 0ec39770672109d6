/// How a treatment is compared with control.
public enum DifferenceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The treatment's mean less control's, in the metric's units.
    case absolute
    /// The absolute difference as a share of control's mean (0.05 is 5 % more than control),
    /// its variance by the delta method.
    case relative
}
