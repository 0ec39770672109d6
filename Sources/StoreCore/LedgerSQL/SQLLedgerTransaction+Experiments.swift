extension SQLLedgerTransaction {
    public func exposures(customerID: String) throws -> [ExperimentExposure] {
        // A customer has a few exposures, read with every snapshot: they are ordered here rather
        // than by a sort the database would set up for each read.
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.exposureColumns) FROM experiment_exposure WHERE customer_id = \(customerID)
            """
        ).map(LedgerRecords.exposure(from:)).sorted(by: LedgerRecords.exposureOrder)
    }

    public func exposures() throws -> [ExperimentExposure] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.exposureColumns) FROM experiment_exposure
            ORDER BY customer_id\(.binaryCollation), experiment\(.binaryCollation), phase\(.binaryCollation)
            """
        ).map(LedgerRecords.exposure(from:))
    }

    public func experimentPhases(experiment: String?) throws -> [ExperimentPhaseRecord] {
        let condition: LedgerSQL = experiment.map { "WHERE experiment = \($0)" } ?? ""
        return try connection.rows(
            """
            SELECT \(sql: LedgerRecords.experimentPhaseColumns) FROM experiment_phase \(sql: condition)
            ORDER BY experiment\(.binaryCollation), first_recorded_date, phase\(.binaryCollation)
            """
        ).map(LedgerRecords.experimentPhase(from:))
    }

    @discardableResult
    public func insertExposures(_ exposures: [ExperimentExposure]) throws -> Set<ExperimentExposureKey> {
        guard !exposures.isEmpty else { return [] }
        let rows = exposures.map { exposure -> LedgerSQL in
            """
            (\(exposure.customerID), \(exposure.experiment), \(exposure.phase), \(exposure.variant),
             \(exposure.exposedDate.millisecondsSince1970), \(exposure.policyVersion), \(exposure.hook), \(exposure.placement))
            """
        }
        return Set(try connection.rows(
            """
            INSERT INTO experiment_exposure (\(sql: LedgerRecords.exposureColumns)) VALUES \(sql: .joined(rows, separator: ", "))
            ON CONFLICT (customer_id, experiment, phase) DO NOTHING RETURNING customer_id, experiment, phase
            """
        ).map { row in
            ExperimentExposureKey(customerID: try row.text("customer_id"), experiment: try row.text("experiment"), phase: try row.text("phase"))
        })
    }

    public func insertExperimentPhases(_ phases: [ExperimentPhaseRecord]) throws {
        guard !phases.isEmpty else { return }
        let rows = phases.map { phase -> LedgerSQL in
            """
            (\(phase.experiment), \(phase.phase), \(LedgerRecords.variantsJSON(phase.variants)), \(phase.traffic),
             \(phase.firstRecordedDate.millisecondsSince1970))
            """
        }
        try connection.send(
            """
            INSERT INTO experiment_phase (\(sql: LedgerRecords.experimentPhaseColumns)) VALUES \(sql: .joined(rows, separator: ", "))
            ON CONFLICT (experiment, phase) DO NOTHING
            """)
    }
}
