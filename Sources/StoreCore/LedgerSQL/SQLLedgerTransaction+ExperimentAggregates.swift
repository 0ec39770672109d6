import Foundation

extension SQLLedgerTransaction {
    public func experimentAggregates(_ query: ExperimentAggregatesQuery) throws -> [ExperimentAggregates] {
        var builder = ExperimentAggregatesBuilder(query: query)
        for row in try connection.rows(LedgerRecords.exposureCountsQuery(query)) { try builder.addExposures(row) }
        for row in try connection.rows(LedgerRecords.outcomeCountsQuery(query)) { try builder.addOutcomes(row) }
        let revenue = LedgerRecords.revenueQuery(query, capRanks: builder.capRanks, maturedCustomers: builder.maturedCustomers)
        for row in try connection.rows(revenue) { try builder.addRevenue(row) }
        if let rates = query.rates {
            for row in try connection.rows(LedgerRecords.currenciesLeftOutQuery(query, rates: rates)) { try builder.addCurrencyLeftOut(row) }
        }
        builder.policyVersions = try connection.rows(LedgerRecords.exposurePolicyVersionsQuery(query)).map { try $0.text("policy_version") }
        builder.customersInSeveralVariants = Int(try connection.firstRow(LedgerRecords.customersInSeveralVariantsQuery(query))?.integer("customers") ?? 0)
        return builder.aggregates()
    }
}
