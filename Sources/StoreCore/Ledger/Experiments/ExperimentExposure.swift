import Foundation

/// The first time a customer was shown a variant of an experiment's phase: which variant, when,
/// by which policy version, in which hook and at which placement. The ledger keeps one per
/// customer, experiment and phase (``Ledger/recordExposures(_:phases:)``); the customer keeps
/// the variant it names for the rest of the phase.
public struct ExperimentExposure: Hashable, Sendable, Codable {
    /// The customer exposed.
    public var customerID: String
    /// The experiment's name, as the policy declares it.
    public var experiment: String
    /// The phase of the experiment: what its variants, weights and salt were when the customer
    /// was exposed.
    public var phase: String
    /// The variant the customer was shown.
    public var variant: String
    /// When the customer was first exposed; the ledger keeps it to the millisecond.
    public var exposedDate: Date
    /// The version of the policy that made the decision.
    public var policyVersion: String
    /// The hook that read the variant.
    public var hook: String
    /// The placement the decision was for, when it was for one.
    public var placement: String?

    /// Describes an exposure.
    public init(customerID: String, experiment: String, phase: String, variant: String, exposedDate: Date,
                policyVersion: String, hook: String, placement: String? = nil) {
        self.customerID = customerID
        self.experiment = experiment
        self.phase = phase
        self.variant = variant
        self.exposedDate = exposedDate
        self.policyVersion = policyVersion
        self.hook = hook
        self.placement = placement
    }

    /// The exposure, when each of its fields follows the ledger's rules: a customer id as
    /// ``CustomerID`` says, and every name (the placement too, when given) 1 to
    /// ``ExperimentNameRule/maximumLength`` characters without control characters.
    ///
    /// - Throws: ``LedgerError/invalidCustomerID(_:)``, or ``LedgerError/invalidExperiment(_:)``
    ///   naming the field that breaks the rule.
    @discardableResult
    public func validated() throws(LedgerError) -> ExperimentExposure {
        try CustomerID.validated(customerID)
        try ExperimentNameRule.check(experiment, "an exposure's experiment")
        try ExperimentNameRule.check(phase, "an exposure's phase")
        try ExperimentNameRule.check(variant, "an exposure's variant")
        try ExperimentNameRule.check(policyVersion, "an exposure's policy version")
        try ExperimentNameRule.check(hook, "an exposure's hook")
        if let placement {
            try ExperimentNameRule.check(placement, "an exposure's placement, when given,")
        }
        return self
    }
}
