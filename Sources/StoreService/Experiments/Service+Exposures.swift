import StoreCore
import StorePolicy

extension Service {
    /// How many times a decision is made before its exposures are recorded as decided.
    static let exposureAttempts = 2

    /// Records the exposures a decision read before the decision is shown, outside any rule
    /// (``StorePolicy/PolicyEngine/record(_:in:at:)``): the ledger keeps one per customer,
    /// experiment and phase, so the first instance to record one wins and later ones read it back.
    ///
    /// - Returns: whether the ledger holds the variants decided; false when it holds another
    ///   one, and the decision must be made again on what it holds.
    /// - Throws: ``ServiceError/storageFailed(_:)`` when the ledger cannot take the write: no
    ///   customer sees a variant that was not recorded.
    func recordExposures(_ exposures: [ExperimentExposure]) throws(ServiceError) -> Bool {
        do {
            return try engine.record(exposures, in: ledger, at: clock())
        } catch {
            throw .ledger(error)
        }
    }

    /// What `decide` answers for `customerID` as the ledger knows them now, once the variants
    /// it read are recorded: when the ledger holds other variants than those decided, the
    /// decision is made again on what it holds, and its exposures are recorded in turn.
    ///
    /// - Parameters:
    ///   - records: whether the decision is shown for this state; a customer the ledger does
    ///     not know is answered `404` by the entitlements route, which records nothing.
    ///   - decide: the answer and the exposures it read, for the customer's state and context.
    /// - Throws: ``ServiceError`` when the ledger cannot be read or take the exposures, or
    ///   still holds other variants after ``exposureAttempts`` decisions.
    func decidedAndRecorded<Answer>(
        customerID: String, records: (CustomerState) -> Bool = { _ in true },
        _ decide: (CustomerState, PolicyContext) throws(ServiceError) -> (answer: Answer, exposures: [ExperimentExposure])
    ) throws(ServiceError) -> Answer {
        for _ in 0..<Self.exposureAttempts {
            let (state, context) = try context(of: customerID)
            let decided = try decide(state, context)
            guard records(state) else { return decided.answer }
            if try recordExposures(decided.exposures) { return decided.answer }
        }
        throw .storageFailed(LedgerStorageFailure(
            message: "the ledger holds other variants for \(customerID) than the policy decides on it; check its experiment_exposure rows",
            isTransient: false))
    }
}
