import Foundation

extension SQLLedgerTransaction {
    public func experimentAggregates(_ query: ExperimentAggregatesQuery, counting part: ExperimentAggregatesPart) throws -> ExperimentAggregateFigures {
        var figures = ExperimentAggregateFigures(query: query)
        switch part {
        case .exposures:
            for row in try connection.rows(LedgerRecords.exposureCountsQuery(query)) { try figures.addExposures(row) }
            figures.policyVersions = try connection.rows(LedgerRecords.exposurePolicyVersionsQuery(query)).map { try $0.text("policy_version") }
            figures.customersInSeveralVariants = Int(try connection.firstRow(LedgerRecords.customersInSeveralVariantsQuery(query))?.integer("customers") ?? 0)
        case .outcomes:
            for row in try connection.rows(LedgerRecords.outcomeCountsQuery(query)) { try figures.addOutcomes(row) }
        case .revenue(let capRanks, let maturedCustomers):
            for row in try connection.rows(LedgerRecords.revenueQuery(query, capRanks: capRanks, maturedCustomers: maturedCustomers)) {
                try figures.addRevenue(row)
            }
            if let rates = query.rates {
                for row in try connection.rows(LedgerRecords.currenciesLeftOutQuery(query, rates: rates)) { try figures.addCurrencyLeftOut(row) }
            }
        }
        return figures
    }
}
