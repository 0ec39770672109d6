import Foundation

extension Ledger {
    /// Stores each exposure unless its customer already has one for that experiment and phase,
    /// and each phase record unless one of its experiment and phase is stored, in one write,
    /// recording the customers the ledger does not know yet; returns the stored exposure of each
    /// experiment and phase asked about, in the order asked: the one already stored wins over
    /// the one given, so a customer keeps the variant they were first shown however many
    /// writers record an exposure at once. The write is committed without waiting for the disk
    /// (``LedgerWriteDurability/committed``).
    ///
    /// - Throws: ``LedgerError/invalidCustomerID(_:)`` or ``LedgerError/invalidExperiment(_:)``
    ///   for an exposure or phase record that breaks the rules of ``ExperimentExposure/validated()``
    ///   and ``ExperimentPhaseRecord/validated()`` (nothing is written); a storage failure.
    @discardableResult
    public func recordExposures(_ exposures: [ExperimentExposure], phases: [ExperimentPhaseRecord]) throws -> [ExperimentExposure] {
        for exposure in exposures { try exposure.validated() }
        for phase in phases { try phase.validated() }
        var seen = Set<ExperimentExposureKey>()
        let asked = exposures.filter { seen.insert(ExperimentExposureKey($0)).inserted }
        // A phase this ledger saw stored is not written again: each exposure's write then
        // holds the exposure alone.
        let unrecorded = recordedPhases.unrecorded(phases)
        guard !asked.isEmpty || !unrecorded.isEmpty else { return [] }
        let customerIDs = Self.distinctByBytes(asked.map(\.customerID)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let now = Self.nowInMilliseconds()
        // An exposure lost to a power loss is recorded again by the customer's next decision,
        // with the variant the same hash gives, so it does not wait for the disk.
        let kept = try writing(durability: .committed) { ledger in
            for customerID in customerIDs {
                try ledger.insertCustomer(id: customerID, appAccountToken: nil, createdDate: now)
            }
            try ledger.insertExperimentPhases(unrecorded.sorted { ExperimentPhaseKey($0) < ExperimentPhaseKey($1) })
            // In key order, so that two writers never wait on each other's rows in a cycle.
            let inserted = try ledger.insertExposures(asked.sorted { ExperimentExposureKey($0) < ExperimentExposureKey($1) })
            // Only a customer who had an exposure already is read back: the one stored wins.
            var stored: [ExperimentExposureKey: ExperimentExposure] = [:]
            for customerID in Self.distinctByBytes(asked.filter { !inserted.contains(ExperimentExposureKey($0)) }.map(\.customerID)) {
                for exposure in try ledger.exposures(customerID: customerID) {
                    stored[ExperimentExposureKey(exposure)] = exposure
                }
            }
            return try asked.map { exposure in
                let key = ExperimentExposureKey(exposure)
                if inserted.contains(key) {
                    var written = exposure
                    written.exposedDate = Date(millisecondsSince1970: exposure.exposedDate.millisecondsSince1970)
                    return written
                }
                guard let kept = stored[key] else {
                    throw LedgerError.storage(LedgerStorageFailure(
                        message: "the exposure of \(exposure.customerID) to \(exposure.experiment) was not stored", isTransient: true))
                }
                return kept
            }
        }
        recordedPhases.noteStored(unrecorded)
        return kept
    }

    /// `ids` without repeats, told apart by their bytes as the ledger tells them apart.
    private static func distinctByBytes(_ ids: [String]) -> [String] {
        var seen = Set<[UInt8]>()
        return ids.filter { seen.insert(Array($0.utf8)).inserted }
    }

    /// A customer's exposures to experiments, by exposure time, then experiment and phase.
    ///
    /// - Throws: ``LedgerError/invalidCustomerID(_:)``; a storage failure.
    public func exposures(customerID: String) throws -> [ExperimentExposure] {
        try CustomerID.validated(customerID)
        return try reading { try $0.exposures(customerID: customerID) }
    }

    /// The phase records of `experiment`, or of every experiment when nil, by experiment, then
    /// when each phase was first recorded.
    public func experimentPhases(experiment: String?) throws -> [ExperimentPhaseRecord] {
        try reading { try $0.experimentPhases(experiment: experiment) }
    }
}
