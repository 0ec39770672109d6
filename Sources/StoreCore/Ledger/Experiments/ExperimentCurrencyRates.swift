/// Exchange rates that put revenue in one currency: how many units of ``targetCurrency`` one
/// unit of each currency is worth. The target currency is worth 1 of itself unless
/// ``rates`` says otherwise. Revenue in a currency without a rate is left out of the report
/// and named as left out, never converted at a guess.
public struct ExperimentCurrencyRates: Hashable, Sendable, Codable {
    /// The ISO 4217 code of the currency revenue is reported in.
    public var targetCurrency: String
    /// Units of the target currency per unit of each currency, by ISO 4217 code.
    public var rates: [String: Double]

    /// Describes the rates into `targetCurrency`.
    public init(targetCurrency: String, rates: [String: Double]) {
        self.targetCurrency = targetCurrency
        self.rates = rates
    }

    /// Every rate, the target currency's included, by currency code.
    var allRates: [(currency: String, rate: Double)] {
        var all = rates
        if all[targetCurrency] == nil { all[targetCurrency] = 1 }
        return all.map { (currency: $0.key, rate: $0.value) }.sorted { $0.currency.utf8.lexicographicallyPrecedes($1.currency.utf8) }
    }

    /// The rates, when every currency code is 1 to ``ExperimentNameRule/maximumLength``
    /// characters without control characters and every rate is finite and above 0.
    ///
    /// - Throws: ``LedgerError/invalidExperiment(_:)`` naming the bad currency or rate.
    @discardableResult
    public func validated() throws(LedgerError) -> ExperimentCurrencyRates {
        try ExperimentNameRule.check(targetCurrency, "the target currency")
        for (currency, rate) in allRates {
            try ExperimentNameRule.check(currency, "a currency of the rates")
            guard rate.isFinite, rate > 0 else {
                throw .invalidExperiment("the rate of \(currency) is \(rate); a rate is a finite number above 0")
            }
        }
        return self
    }
}
