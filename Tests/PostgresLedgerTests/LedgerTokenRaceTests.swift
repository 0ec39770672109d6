import Foundation
import StoreCore
import Synchronization
import Testing

/// Two customers claiming one app account token at the same moment.
@Suite struct LedgerTokenRaceTests {
    @Test("two customers claiming one token at once: one has it, the other is told who does",
          arguments: LedgerBackend.available)
    func racingClaimsOfOneToken(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        for round in 0..<20 {
            let token = UUID().uuidString
            let canonical = token.lowercased()
            let barrier = ThreadBarrier(parties: 2)
            let outcomes = Mutex<[String: Result<Customer, LedgerError>]>([:])
            try runOnThreads(2) { index in
                let customer = "\(index == 0 ? "ana" : "bo")-\(round)"
                try barrier.arriveAndWait()
                let outcome = Result { () throws(LedgerError) -> Customer in
                    do {
                        return try ledger.registerCustomer(id: customer, appAccountToken: token)
                    } catch let error as LedgerError {
                        throw error
                    } catch {
                        throw LedgerError.storage(LedgerStorageFailure(error))
                    }
                }
                outcomes.withLock { $0[customer] = outcome }
            }
            let results = outcomes.withLock { $0 }
            let winners = results.compactMap { try? $0.value.get().id }
            #expect(winners.count == 1, "round \(round): \(results)")
            guard let winner = winners.first else { continue }
            for (customer, outcome) in results where customer != winner {
                guard case .failure(let error) = outcome else { continue }
                #expect(error == .appAccountTokenInUse(token: canonical, customerID: winner), "round \(round)")
                #expect(try ledger.customer(id: customer)?.appAccountToken == nil)
            }
            #expect(try ledger.customers().filter { $0.appAccountToken == canonical }.map(\.id) == [winner])
        }
    }
}
