import Foundation
import SignedData

extension Ledger {
    /// Checks the ledger's invariants from what it stores, on any storage, and returns one
    /// line per violation (none when the ledger is consistent):
    /// - each balance is the sum of its customer's grants minus the reversed ones;
    /// - only granted transactions have grants, and every reversed grant was granted;
    /// - every stored JWS decodes to the transaction fields stored beside it;
    /// - app account tokens are canonical, and no two customers hold the same one but for case;
    /// - no notification is kept as a conflict with a stored transaction;
    /// - every transaction is its account's: none is stored for a customer other than the one
    ///   its app account token is registered to, and one subscription's transactions are all
    ///   stored for one customer;
    /// - every exposure to an experiment whose phase is recorded names a variant the phase declares.
    public func checkInvariants() throws -> [String] {
        try reading { ledger in
            let customers = try ledger.customers()
            var violations = Self.appAccountTokenViolations(of: customers)
            let tokenOwners = Dictionary(
                customers.compactMap { customer in customer.appAccountToken.map { ($0, customer.id) } },
                uniquingKeysWith: { first, _ in first })
            var subscriptionOwners: [String: Set<String>] = [:]
            for customer in customers {
                var expected: [String: Int] = [:]
                for transaction in try ledger.transactions(.customer(customer.id)) {
                    subscriptionOwners[transaction.originalID, default: []].insert(customer.id)
                    if let token = transaction.appAccountToken, let owner = tokenOwners[token], owner != customer.id {
                        violations.append("transaction \(transaction.id) is stored for \(customer.id), "
                                          + "but its app account token \(token) is registered to \(owner)")
                    }
                    let grants = try ledger.grants(ofTransaction: transaction.id)
                    let reversed = try ledger.reversedGrants(ofTransaction: transaction.id)
                    if !grants.isEmpty, transaction.grantState != .granted {
                        violations.append("transaction \(transaction.id) has grants but is not granted")
                    }
                    if reversed.count > grants.count {
                        violations.append("transaction \(transaction.id) has more reversals than grants")
                    }
                    for grant in grants { expected[grant.item, default: 0] += grant.amount }
                    for grant in reversed { expected[grant.item, default: 0] -= grant.amount }
                    violations += Self.mismatches(ofStoredJWS: transaction)
                }
                let balances = try ledger.balances(customerID: customer.id)
                for item in Set(expected.keys).union(balances.keys).sorted() where (balances[item] ?? 0) != (expected[item] ?? 0) {
                    violations.append("the \(item) balance of \(customer.id) is \(balances[item] ?? 0); "
                                      + "its grants minus reversals are \(expected[item] ?? 0)")
                }
            }
            for (originalID, owners) in subscriptionOwners.sorted(by: { $0.key < $1.key }) where owners.count > 1 {
                violations.append("the transactions of original transaction \(originalID) are stored for several customers: "
                                  + owners.sorted().joined(separator: ", "))
            }
            for conflict in try ledger.notificationConflicts() {
                violations.append("notification \(conflict.uuid) is kept as a conflict: transaction \(conflict.transactionID) "
                                  + "is stored with \(conflict.field) \(conflict.stored), and arrived with \(conflict.received)")
            }
            violations += Self.undeclaredVariants(of: try ledger.exposures(), phases: try ledger.experimentPhases(experiment: nil))
            return violations
        }
    }

    /// Customers whose app account tokens are the same but for case, and tokens not stored in
    /// canonical form, as violations.
    private static func appAccountTokenViolations(of customers: [Customer]) -> [String] {
        var owners: [String: [String]] = [:]
        var violations: [String] = []
        for customer in customers {
            guard let token = customer.appAccountToken else { continue }
            let canonical = AppAccountToken.canonical(token) ?? token
            owners[canonical, default: []].append(customer.id)
            if canonical != token {
                violations.append("customer \(customer.id) has app account token \(token), not in canonical form \(canonical)")
            }
        }
        for (token, ids) in owners.sorted(by: { $0.key < $1.key }) where ids.count > 1 {
            violations.append("customers \(ids.sorted().joined(separator: ", ")) have the same app account token \(token) "
                              + "but for case; only the one holding its canonical form receives its notifications")
        }
        return violations
    }

    /// Exposures naming a variant their recorded phase does not declare, as violations.
    private static func undeclaredVariants(of exposures: [ExperimentExposure], phases: [ExperimentPhaseRecord]) -> [String] {
        let declared = Dictionary(phases.map { ([$0.experiment, $0.phase], $0.variants.map(\.name)) }, uniquingKeysWith: { first, _ in first })
        return exposures.compactMap { exposure in
            guard let variants = declared[[exposure.experiment, exposure.phase]], !variants.contains(exposure.variant) else { return nil }
            return "customer \(exposure.customerID) was exposed to variant \(exposure.variant) of \(exposure.experiment) "
                + "in phase \(exposure.phase), which declares only \(variants.joined(separator: ", "))"
        }
    }

    /// The fields of `transaction` that its stored JWS does not say, as violations.
    private static func mismatches(ofStoredJWS transaction: StoredTransaction) -> [String] {
        let payload: JWSTransactionDecodedPayload
        do {
            payload = try storedTransactionPayload(transaction.jwsRepresentation)
        } catch {
            return ["transaction \(transaction.id): its stored JWS does not decode: \(error)"]
        }
        let fields: [(String, String?, String?)] = [
            ("transactionId", payload.transactionId, transaction.id),
            ("originalTransactionId", payload.originalTransactionId, transaction.originalID),
            ("productId", payload.productId, transaction.productID),
            ("quantity", payload.quantity.map { "\($0)" }, "\(transaction.purchasedQuantity)"),
            ("purchaseDate", payload.purchaseDate.map { "\($0.millisecondsSince1970)" }, "\(transaction.purchaseDate.millisecondsSince1970)"),
            ("signedDate", payload.signedDate.map { "\($0.millisecondsSince1970)" }, "\(transaction.signedDate.millisecondsSince1970)"),
            ("revocationDate", payload.revocationDate.map { "\($0.millisecondsSince1970)" },
             transaction.revocationDate.map { "\($0.millisecondsSince1970)" }),
        ]
        return fields.filter { $0.1 != $0.2 }.map { field, signed, stored in
            "transaction \(transaction.id): its JWS says \(field) \(signed ?? "nothing"), the ledger stores \(stored ?? "nothing")"
        }
    }

    /// The payload of a transaction JWS the ledger verified before it stored or kept it.
    static func storedTransactionPayload(_ jws: String) throws -> JWSTransactionDecodedPayload {
        try SignedPayloadJSON.decode(JWSTransactionDecodedPayload.self, from: try JWSSegments(jws).decoded().payload)
    }
}
