import Foundation

extension SQLLedgerTransaction {
    public func experimentAggregates(_ query: ExperimentAggregatesQuery, counting part: ExperimentAggregatesPart) throws -> ExperimentAggregateFigures {
        var figures = ExperimentAggregateFigures(query: query)
        switch part {
        case .exposures:
            for row in try connection.rows(LedgerRecords.exposureCountsQuery(query)) { try figures.addExposures(row) }
        case .exposureChecks:
            figures.policyVersions = try connection.rows(LedgerRecords.exposurePolicyVersionsQuery(query)).map { try $0.text("policy_version") }
            figures.customersInSeveralVariants = Int(try connection.firstRow(LedgerRecords.customersInSeveralVariantsQuery(query))?.integer("customers") ?? 0)
        case .outcomes:
            try allowReportMemory()
            for row in try connection.rows(LedgerRecords.outcomeCountsQuery(query)) { try figures.addOutcomes(row) }
        case .revenue(let capRanks, let maturedCustomers):
            try allowReportMemory()
            for row in try connection.rows(LedgerRecords.revenueQuery(query, capRanks: capRanks, maturedCustomers: maturedCustomers)) {
                try figures.addRevenue(row)
            }
            if let rates = query.rates {
                for row in try connection.rows(LedgerRecords.currenciesLeftOutQuery(query, rates: rates)) { try figures.addCurrencyLeftOut(row) }
            }
        }
        return figures
    }

    /// On PostgreSQL, lets this read's sorts and hash tables take the memory a report's
    /// grouping of every matured customer's transactions needs
    /// (``LedgerRecords/reportWorkMemory``), rather than spill them to disk; sent with the
    /// read's first statement, it ends with the read.
    private func allowReportMemory() throws {
        guard connection.dialect == .postgres else { return }
        try connection.send("SET LOCAL work_mem = '\(sql: LedgerRecords.reportWorkMemory)'")
    }
}
