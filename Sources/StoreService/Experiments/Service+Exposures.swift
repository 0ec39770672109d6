import StoreCore
import StorePolicy

extension Service {
    /// Records the exposures a decision read before the decision is shown, outside any rule
    /// (``StorePolicy/PolicyEngine/record(_:in:at:)``): the ledger keeps one per customer,
    /// experiment and phase, so the first instance to record one wins and later ones read it back.
    ///
    /// - Returns: whether the ledger holds the variants decided; false when another writer
    ///   recorded a different one first, and the decision must be made again on what it holds.
    /// - Throws: ``ServiceError/ledger(_:)`` when the ledger cannot take the write: no customer
    ///   sees a variant that was not recorded.
    func recordExposures(_ exposures: [ExperimentExposure]) throws(ServiceError) -> Bool {
        do {
            return try engine.record(exposures, in: ledger, at: clock())
        } catch {
            throw .ledger(error)
        }
    }
}
