import StoreCore
import StoreTesting

/// Signed transactions for the ledger benchmarks, all distinct, each with the customer who
/// owns it: one of ``customerCount`` customers, in turn, so threads that take every n-th
/// transaction (n dividing the count) never share a customer.
struct BenchTransactionSupply: Sendable {
    /// One transaction as the ledger receives it.
    struct Item: Sendable {
        /// The decoded transaction.
        let payload: JWSTransactionDecodedPayload
        /// The signed JWS it was decoded from.
        let jws: String
        /// The customer who owns it.
        let customerID: String
    }

    /// How many customers the transactions belong to.
    static let customerCount = 64

    /// The transactions, in the order they were signed.
    let items: [Item]

    /// Signs `count` distinct transactions with a signing authority made for the run.
    init(count: Int) throws {
        do {
            let authority = try SigningAuthority.generate(name: "StoreRules Ledger Bench")
            items = try (0..<count).map { index in
                let payload = SignedDataBench.transaction(index)
                return Item(payload: payload, jws: try authority.sign(payload), customerID: Self.customerID(index))
            }
        } catch {
            throw BenchFailure("preparing the ledger benchmark's transactions: \(error)")
        }
    }

    /// The customer of the transaction at `index`.
    static func customerID(_ index: Int) -> String {
        "bench-customer-\(index % customerCount)"
    }

    /// The transactions at `start..<start + count`; the supply must hold them.
    func slice(from start: Int, count: Int) -> ArraySlice<Item> {
        precondition(start + count <= items.count, "the bench transaction supply is too small")
        return items[start..<start + count]
    }

    /// Stores `item` in `ledger` and grants it one item.
    static func ingest(_ item: Item, into ledger: Ledger) throws {
        try ledger.ingest(transaction: item.payload, jwsRepresentation: item.jws, customerID: item.customerID) { _ in
            [Grant(item: "pellet", amount: 1)]
        }
    }
}
