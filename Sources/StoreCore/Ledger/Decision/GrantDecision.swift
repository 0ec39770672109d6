/// What a decision closure answered for one transaction, before anything is written: the
/// grants to record, or why the transaction stays unfinished.
struct GrantDecision {
    /// The transaction as the decision saw it.
    let basis: StoredTransaction
    /// The grants, or the reason there are none to record.
    let outcome: Result<[Grant], Failure>

    /// Why a decision cannot be recorded as grants.
    struct Failure: Error {
        let reason: UnfinishedReason
    }

    /// Asks `decide` about `transaction` and checks every grant it returns. A closure that
    /// throws, or a grant that breaks ``Grant``'s rules, is a failure with the reason.
    static func asking(_ decide: (StoredTransaction) throws -> [Grant], about transaction: StoredTransaction) -> GrantDecision {
        let grants: [Grant]
        do {
            grants = try decide(transaction)
        } catch {
            return GrantDecision(basis: transaction, outcome: .failure(Failure(reason: .decisionFailed(String(describing: error)))))
        }
        do {
            try grants.forEach { try $0.validate() }
        } catch {
            return GrantDecision(basis: transaction, outcome: .failure(Failure(reason: .invalidGrant(String(describing: error)))))
        }
        return GrantDecision(basis: transaction, outcome: .success(grants))
    }

    /// Whether this decision still holds for `current`, the transaction as the write holds it:
    /// unfinished, and the same version of the same customer's transaction the decision saw.
    func holds(for current: StoredTransaction) -> Bool {
        guard case .unfinished = current.grantState else { return false }
        return current.id == basis.id && current.customerID == basis.customerID && current.signedDate == basis.signedDate
            && current.jwsRepresentation == basis.jwsRepresentation
    }
}
