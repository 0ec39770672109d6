import Foundation
import StoreCore

extension LedgerExperimentAggregatesTests {
    /// The same generated population each time: 60 customers exposed to annual_first over 30
    /// days (those of the last 14 not matured at a horizon of 14 days), each with up to four
    /// purchases around their exposure — trials, some converting, in euros, dollars and yen,
    /// some refunded — and a few exposed to another phase.
    static func generatedPopulation(on backend: LedgerBackend) throws -> Ledger {
        let ledger = try backend.freshLedger()
        var random = SeededGenerator(seed: 20_261_204)
        let hour = Payloads.day / 24
        for index in 0..<60 {
            let customer = "customer-\(index)"
            let exposedAt = Int64.random(in: 0..<(30 * 24), using: &random) * hour
            try expose(customer, index % 2 == 0 ? "control" : "annual", at: exposedAt, into: ledger,
                       phase: index % 15 == 14 ? "0000000000aa" : phase, policyVersion: index < 40 ? "v1" : "v2")
            var purchases: [Purchase] = []
            for number in 0..<Int.random(in: 0...4, using: &random) {
                let id = "\(customer)-\(number)"
                let at = exposedAt + Int64.random(in: -2 * 24..<20 * 24, using: &random) * hour
                let revokedAt = Bool.random(using: &random) && Bool.random(using: &random)
                    ? at + Int64.random(in: 1..<(10 * 24), using: &random) * hour : nil
                let currency = ["EUR", "USD", "JPY"][Int.random(in: 0..<3, using: &random)]
                if Bool.random(using: &random) {
                    purchases.append(Purchase(id: id, at: at, price: Int64.random(in: 1...400, using: &random) * 250,
                                              currency: currency, revokedAt: revokedAt))
                } else {
                    purchases.append(Purchase(id: id, at: at, price: 0, currency: currency, trial: true, product: "pass.premium"))
                    let paidAt = at + Int64.random(in: 1..<(12 * 24), using: &random) * hour
                    purchases.append(Purchase(id: id + "-paid", originalID: id, at: paidAt, price: 9990, currency: currency,
                                              revokedAt: revokedAt.map { _ in paidAt + hour }, product: "pass.premium"))
                }
            }
            try ingest(purchases, customerID: customer, into: ledger)
        }
        return ledger
    }
}
