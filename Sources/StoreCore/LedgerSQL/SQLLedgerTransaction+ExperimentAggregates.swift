import Foundation

extension SQLLedgerTransaction {
    public func experimentAggregates(_ query: ExperimentAggregatesQuery) throws -> ExperimentAggregates {
        let exposures = try connection.rows(LedgerRecords.exposureCountsQuery(query))
        var builder = ExperimentAggregatesBuilder(query: query)
        for row in exposures { try builder.addExposures(row) }
        for row in try connection.rows(LedgerRecords.outcomeCountsQuery(query)) { try builder.addOutcomes(row) }
        let revenue = LedgerRecords.revenueQuery(query, capRank: builder.capRank, maturedCustomers: builder.maturedCustomers)
        for row in try connection.rows(revenue) { try builder.addRevenue(row) }
        if let rates = query.rates {
            builder.currenciesLeftOut = try connection.rows(LedgerRecords.currenciesLeftOutQuery(query, rates: rates)).map { try $0.text("currency") }
        }
        builder.policyVersions = try connection.rows(LedgerRecords.exposurePolicyVersionsQuery(query)).map { try $0.text("policy_version") }
        builder.customersInSeveralVariants = Int(try connection.firstRow(LedgerRecords.customersInSeveralVariantsQuery(query))?.integer("customers") ?? 0)
        return builder.aggregates()
    }
}
