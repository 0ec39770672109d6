import Foundation
import SignedData

extension Ledger {
    /// What ``copy(to:)`` copied.
    public struct CopySummary: Hashable, Sendable, Codable {
        /// Customers copied.
        public var customers = 0
        /// Transactions copied, each with its whole history of signed versions.
        public var transactions = 0
        /// Signed versions copied.
        public var versions = 0
        /// Renewal infos copied.
        public var renewalInfos = 0
        /// Grants copied (reversed ones included).
        public var grants = 0
        /// Processed notification UUIDs copied.
        public var processedNotifications = 0
        /// Notifications kept for customers not known yet, copied.
        public var pendingNotifications = 0
        /// Merchandising events copied.
        public var events = 0
        /// Notifications kept as conflicts, copied.
        public var notificationConflicts = 0
        /// Reconciliation checkpoints and revisions copied.
        public var reconciliationMarks = 0
        /// Refund requests copied, with what was decided and sent for each.
        public var consumptionRequests = 0
        /// Renewal extension requests copied.
        public var renewalExtensions = 0
        /// Exposures to experiments copied.
        public var exposures = 0
        /// Phase records of experiments copied.
        public var experimentPhases = 0
        /// Outgoing events copied, each with its id, body and delivery state.
        public var outgoingEvents = 0
    }

    /// Copies everything this ledger holds into `target`, which must be empty: customers,
    /// transactions with their verbatim JWS and every version, renewal infos, grants and their
    /// reversals, balances, processed notifications, the notifications kept for customers not
    /// known yet or as conflicts, merchandising events, where reconciling got to, the refund requests Apple asked about, the renewal extensions sent, the exposures to experiments with the phases they were of, and the outbox
    /// of outgoing events with each customer's last reported state — the way an app moves from the embedded SQLite ledger to a shared
    /// PostgreSQL one, or back. The source is read from one snapshot and the target written in
    /// one transaction, so a failed copy leaves the target empty. Grants, reversals and the
    /// transactions' stored and finished dates are dated at the copy, and grant attempts start
    /// again from zero.
    ///
    /// - Throws: ``LedgerError/copyTargetNotEmpty(_:)`` when the target holds a customer, a
    ///   renewal info or a notification; ``LedgerError/storage(_:)`` when either storage fails.
    @discardableResult
    public func copy(to target: Ledger) throws -> CopySummary {
        let source = try reading { ledger in
            var transactions: [(StoredTransaction, [TransactionVersion], [Grant], [Int], Int64?)] = []
            for transaction in try ledger.transactions(.all) {
                let grants = try ledger.grants(ofTransaction: transaction.id)
                let unreversed = Set(try ledger.unreversedGrants(ofTransaction: transaction.id).map(\.position))
                transactions.append((
                    transaction, try ledger.versions(ofTransaction: transaction.id), grants,
                    grants.indices.filter { !unreversed.contains($0) }, try ledger.grantedDate(ofTransaction: transaction.id)))
            }
            let customers = try ledger.customers()
            let balances = try customers.map { ($0.id, try ledger.balances(customerID: $0.id)) }
            return (customers, transactions, balances, try ledger.renewalInfos(), try ledger.processedNotifications(),
                    try ledger.pendingNotifications(), try ledger.events(), try ledger.notificationConflicts(),
                    try ledger.reconciliationMarks(), try ledger.consumptionRequests(), try ledger.renewalExtensions(),
                    try ledger.exposures(), try ledger.experimentPhases(experiment: nil),
                    try ledger.outgoingEvents(OutgoingEventQuery(limit: .max)), try ledger.outgoingEventStates())
        }
        let now = Self.nowInMilliseconds()
        return try target.writing { ledger in
            let occupied = try ledger.customers().count + ledger.renewalInfos().count
                + ledger.processedNotifications().count + ledger.pendingNotifications().count
            guard occupied == 0 else { throw LedgerError.copyTargetNotEmpty(occupied) }
            var summary = CopySummary()
            for customer in source.0 {
                try ledger.insertCustomer(id: customer.id, appAccountToken: customer.appAccountToken,
                                          createdDate: customer.createdDate.millisecondsSince1970)
                summary.customers += 1
            }
            for (transaction, versions, grants, reversedPositions, grantedDate) in source.1 {
                // When it was granted is kept: a refund answer reads it (tx.granted_date).
                _ = try ledger.insertTransaction(
                    transaction, storedDate: now, finishedDate: grantedDate ?? (transaction.grantState.isFinished ? now : nil), grantAttempts: 0)
                for version in versions where try ledger.insertVersion(version) {
                    summary.versions += 1
                }
                try ledger.insertGrants(grants, transactionID: transaction.id, grantedDate: grantedDate ?? now)
                try ledger.insertReversals(positions: reversedPositions, transactionID: transaction.id, reversedDate: now)
                summary.transactions += 1
                summary.grants += grants.count
            }
            for (customerID, balances) in source.2 {
                try ledger.adjustBalances(customerID: customerID, by: balances)
            }
            for renewalInfo in source.3 where try ledger.upsertRenewalInfo(renewalInfo, storedDate: now) {
                summary.renewalInfos += 1
            }
            for notification in source.4 where try ledger.insertProcessedNotification(notification) {
                summary.processedNotifications += 1
            }
            for notification in source.5 where try ledger.insertPendingNotification(notification) {
                summary.pendingNotifications += 1
            }
            for event in source.6 {
                try ledger.insertEvent(event)
                summary.events += 1
            }
            for conflict in source.7 where try ledger.insertNotificationConflict(conflict) {
                summary.notificationConflicts += 1
            }
            for mark in source.8 {
                try ledger.upsertReconciliationMark(mark)
                summary.reconciliationMarks += 1
            }
            for request in source.9 where try ledger.insertConsumptionRequest(request) {
                summary.consumptionRequests += 1
            }
            for record in source.10 {
                try ledger.upsertRenewalExtension(record)
                summary.renewalExtensions += 1
            }
            // A few hundred rows a statement: a statement binds at most 32,766 parameters on SQLite.
            for start in stride(from: 0, to: source.11.count, by: 500) {
                try ledger.insertExposures(Array(source.11[start..<min(start + 500, source.11.count)]))
            }
            summary.exposures = source.11.count
            try ledger.insertExperimentPhases(source.12)
            summary.experimentPhases = source.12.count
            for start in stride(from: 0, to: source.13.count, by: 500) {
                try ledger.insertOutgoingEvents(Array(source.13[start..<min(start + 500, source.13.count)]))
            }
            summary.outgoingEvents = source.13.count
            for state in source.14 {
                _ = try ledger.lockOutgoingEventState(customerID: state.customerID)
                try ledger.updateOutgoingEventState(
                    customerID: state.customerID, sequence: state.row.sequence, reported: state.row.reported, reviewDate: state.reviewDate)
            }
            return summary
        }
    }
}
