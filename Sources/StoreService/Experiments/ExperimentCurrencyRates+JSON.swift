import Foundation
import StoreCore

extension ExperimentCurrencyRates {
    /// The rates a JSON object gives, currency code → how many units of the target currency one
    /// unit of it is worth (`{"USD": 1, "EUR": 1.08, "JPY": 0.0067}`): the target currency is
    /// the one whose rate is 1.
    ///
    /// - Throws: ``ExperimentRatesError`` when the text is not such an object, or no currency,
    ///   or more than one, has the rate 1.
    public init(json: Data) throws(ExperimentRatesError) {
        let rates: [String: Double]
        do {
            rates = try JSONDecoder().decode([String: Double].self, from: json)
        } catch {
            throw ExperimentRatesError("the rates are a JSON object of currency codes and numbers, such as {\"USD\": 1, \"EUR\": 1.08}")
        }
        let targets = rates.filter { $0.value == 1 }.keys.sorted()
        guard targets.count == 1, let target = targets.first else {
            throw ExperimentRatesError(targets.isEmpty
                ? "no currency has the rate 1: the currency revenue is reported in has the rate 1, the others its units per unit of them"
                : "\(targets.joined(separator: " and ")) all have the rate 1: only the currency revenue is reported in has it")
        }
        self.init(targetCurrency: target, rates: rates)
        do {
            try validated()
        } catch {
            throw ExperimentRatesError(error.description)
        }
    }
}

/// Why a file of exchange rates cannot be read.
public struct ExperimentRatesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in a sentence.
    public let description: String

    /// The failure `description` says.
    public init(_ description: String) {
        self.description = description
    }
}
