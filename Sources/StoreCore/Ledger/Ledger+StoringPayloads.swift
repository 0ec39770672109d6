import Foundation
import SignedData

/// The ledger's writes of received payloads, each inside a write the caller opened: no rule runs
/// here, only reads and writes of storage, so a write may run again after a transient failure.
extension Ledger {
    // MARK: - Storing transactions

    /// What storing a received transaction did.
    struct StoreResult {
        let transaction: StoredTransaction
        let storage: TransactionIngestResult.Storage
        let revocation: TransactionIngestResult.Outcome?
    }

    /// Refuses `received` when it belongs to another customer than the one it is stored for:
    /// its app account token is registered to another, or it or its subscription is stored for
    /// another. A token no customer has registered refuses nothing.
    static func checkClaim(of received: StoredTransaction, in ledger: any LedgerWriting) throws {
        if let refusal = try ledger.claimRefusal(TransactionClaim(received)) {
            throw LedgerError.transactionOfAnotherCustomer(transactionID: received.id, refusal: refusal)
        }
    }

    /// Stores a new transaction, or applies a newer version to the stored one under its row
    /// lock. Two writers storing the same new transaction at once: one inserts it, the other
    /// finds it stored and goes on as for a later delivery.
    static func store(_ received: StoredTransaction, at now: Int64, in ledger: any LedgerWriting) throws -> StoreResult {
        guard let existing = try ledger.lockTransaction(id: received.id) else {
            try ledger.insertCustomer(id: received.customerID, appAccountToken: nil, createdDate: now)
            var fresh = received
            fresh.grantState = received.isRevoked ? .revokedBeforeGrant : .unfinished(.awaitingGrant)
            if try ledger.insertTransaction(fresh, storedDate: now, finishedDate: received.isRevoked ? now : nil, grantAttempts: 0) {
                try ledger.insertFirstVersion(received.version(receivedAt: now))
                // The inserted row is held by this write, and is `fresh` as it was given.
                return StoreResult(
                    transaction: fresh,
                    storage: .inserted,
                    revocation: received.isRevoked ? .revoked(reversed: []) : nil)
            }
            return try storeVersion(received, of: try requireLockedTransaction(id: received.id, in: ledger), at: now, in: ledger)
        }
        return try storeVersion(received, of: existing, at: now, in: ledger)
    }

    /// Applies a received version of a stored transaction: recorded in the history, and when
    /// signed later than the stored one, its fields and revocation state taken over.
    private static func storeVersion(
        _ received: StoredTransaction, of existing: StoredTransaction, at now: Int64, in ledger: any LedgerWriting
    ) throws -> StoreResult {
        try checkUnchangeableFields(of: existing, against: received)
        guard try ledger.insertVersion(received.version(receivedAt: now)) else {
            return StoreResult(transaction: existing, storage: .unchanged, revocation: nil)
        }
        guard received.signedDate > existing.signedDate else {
            return StoreResult(transaction: existing, storage: .superseded, revocation: nil)
        }
        try ledger.updateChangeableFields(of: received)
        var revocation: TransactionIngestResult.Outcome?
        switch (existing.isRevoked, received.isRevoked, existing.grantState) {
        case (false, true, .granted):
            revocation = .revoked(reversed: try reverseGrants(of: existing, at: now, in: ledger))
        case (false, true, _):
            try ledger.setGrantState(.revokedBeforeGrant, transactionID: existing.id, finishedDate: now, countsAttempt: false)
            revocation = .revoked(reversed: [])
        case (true, false, .granted):
            revocation = .revocationWithdrawn(restored: try restoreGrants(of: existing, in: ledger))
        case (true, false, _):
            try ledger.setGrantState(.unfinished(.awaitingGrant), transactionID: existing.id, finishedDate: nil, countsAttempt: false)
        default:
            break
        }
        return StoreResult(
            transaction: try requireLockedTransaction(id: existing.id, in: ledger), storage: .updated, revocation: revocation)
    }

    /// Refuses a version that changes what never changes for one transaction; one claimed for
    /// another customer than its own is refused without naming either.
    private static func checkUnchangeableFields(of stored: StoredTransaction, against received: StoredTransaction) throws {
        guard stored.customerID == received.customerID else {
            throw LedgerError.transactionOfAnotherCustomer(transactionID: stored.id, refusal: .storedForAnotherCustomer)
        }
        let fields: [(String, String, String)] = [
            ("originalTransactionId", stored.originalID, received.originalID),
            ("productId", stored.productID, received.productID),
            ("type", stored.productType.rawValue, received.productType.rawValue),
            ("purchaseDate", "\(stored.purchaseDate.millisecondsSince1970)", "\(received.purchaseDate.millisecondsSince1970)"),
            ("quantity", "\(stored.purchasedQuantity)", "\(received.purchasedQuantity)"),
            ("environment", stored.environment.rawValue, received.environment.rawValue),
        ]
        if let (field, storedValue, receivedValue) = fields.first(where: { $0.1 != $0.2 }) {
            throw LedgerError.conflictingTransaction(
                transactionID: stored.id, field: field, stored: storedValue, received: receivedValue)
        }
    }

    /// Reverses every grant of a transaction not reversed yet, and lowers the balances.
    private static func reverseGrants(of transaction: StoredTransaction, at now: Int64, in ledger: any LedgerWriting) throws -> [Grant] {
        let unreversed = try ledger.unreversedGrants(ofTransaction: transaction.id)
        try ledger.insertReversals(positions: unreversed.map(\.position), transactionID: transaction.id, reversedDate: now)
        try ledger.adjustBalances(customerID: transaction.customerID, by: Grant.totals(unreversed.map(\.grant), sign: -1))
        return unreversed.map(\.grant)
    }

    /// Removes a transaction's reversals, and raises the balances again.
    private static func restoreGrants(of transaction: StoredTransaction, in ledger: any LedgerWriting) throws -> [Grant] {
        let restored = try ledger.reversedGrants(ofTransaction: transaction.id)
        try ledger.deleteReversals(transactionID: transaction.id)
        try ledger.adjustBalances(customerID: transaction.customerID, by: Grant.totals(restored))
        return restored
    }

    static func requireLockedTransaction(id: String, in ledger: any LedgerWriting) throws -> StoredTransaction {
        guard let transaction = try ledger.lockTransaction(id: id) else {
            throw LedgerError.unknownTransaction(id)
        }
        return transaction
    }

    // MARK: - Storing renewal infos

    /// Stores a renewal info, replacing the one stored for its subscription only when this one
    /// was signed later.
    static func store(renewalInfo received: StoredRenewalInfo, at now: Int64, in ledger: any LedgerWriting) throws -> RenewalInfoIngestResult {
        let existing = try ledger.renewalInfo(originalTransactionID: received.originalTransactionID)
        if let existing, existing.signedDate >= received.signedDate {
            return .kept(existing)
        }
        let replaced = try ledger.upsertRenewalInfo(received, storedDate: now)
        guard let stored = try ledger.renewalInfo(originalTransactionID: received.originalTransactionID) else {
            throw LedgerError.storage(LedgerStorageFailure(
                message: "the renewal info of \(received.originalTransactionID) was not stored", isTransient: true))
        }
        guard replaced else { return .kept(stored) }
        return existing == nil ? .inserted(stored) : .replaced(stored)
    }
}
