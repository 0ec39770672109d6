import StoreCore

/// What the policy's grant decision made of one transaction, as `store purchase` reports it.
struct GrantOutcome {
    /// Whether the transaction is granted, unfinished (and why) or was revoked first.
    let state: GrantState
    /// What it granted, in the decision's order.
    let grants: [Grant]

    /// The outcome the ledger records for `transactionID`, or nil when it has no such
    /// transaction.
    init?(transactionID: String, ledger: Ledger) throws {
        guard let stored = try ledger.transaction(id: transactionID) else { return nil }
        state = stored.grantState
        grants = try ledger.grants(ofTransaction: transactionID)
    }

    /// One line: `Granted 5 pellet.`, `Granted nothing.` or `Grant unfinished: REASON.`
    var sentence: String {
        switch state {
        case .granted:
            grants.isEmpty ? "Granted nothing." : "Granted " + grants.map { "\($0.amount) \($0.item)" }.joined(separator: ", ") + "."
        case .revokedBeforeGrant: "Not granted: revoked before the grant."
        case .unfinished(let reason): "Grant unfinished: \(reason)."
        }
    }
}
