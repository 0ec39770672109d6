import AppStoreServerAPI
import Foundation
import StoreCore

/// Brings a ledger up to date with the App Store after its service missed notifications:
/// notification history since the ledger's checkpoint (those that failed to arrive first, then
/// every one of the window), then, for each customer those notifications touched, their
/// transaction history from the revision kept for them and their subscription statuses — all
/// through the service's own ingest, so nothing is granted twice and a second reconcile changes
/// nothing.
///
/// The checkpoint and the revisions live in the ledger (``StoreCore/ReconciliationMark``); the
/// checkpoint moves to the window's end only when everything in it was ingested.
public final class Reconciler: Sendable {
    /// The service whose ledger is reconciled.
    public let service: Service
    /// The client that reads Apple's records.
    public let client: AppStoreServerAPIClient
    /// The name the checkpoint is kept under.
    public static let checkpointKey = "notifications"
    /// How far back notification history reaches: 180 days.
    public static let historyReach: TimeInterval = 180 * 86_400

    /// A reconciler of `service`'s ledger through `client`.
    public init(service: Service, client: AppStoreServerAPIClient) {
        self.service = service
        self.client = client
    }

    /// Reconciles from `since` (or the ledger's checkpoint, or as far back as Apple keeps
    /// history) to `now` (the server's clock, ``AppStoreServerAPI/AppStoreServerAPIClient/serverNow()``,
    /// when not given), telling `progress` what it is doing.
    ///
    /// - Throws: ``AppStoreServerAPI/AppStoreServerAPIError`` when notification history cannot
    ///   be read, or ``StoreCore/LedgerError`` when the ledger cannot; a customer whose history
    ///   fails is a failure in the summary, and the others are still reconciled.
    public func reconcile(since: Date? = nil, now given: Date? = nil,
                          progress: @Sendable (String) -> Void = { _ in }) async throws -> ReconciliationSummary {
        let ledger = service.ledger
        let now: Date
        if let given { now = given } else { now = try await client.serverNow() }
        let end = now.millisecondsSince1970
        let earliest = now.addingTimeInterval(-Self.historyReach + 60).millisecondsSince1970
        let checkpoint = try ledger.reconciliationMark(.checkpoint, key: Self.checkpointKey).flatMap { Int64($0.value) }
        let start = max(since?.millisecondsSince1970 ?? checkpoint ?? earliest, earliest)
        var summary = ReconciliationSummary(windowStart: start, windowEnd: end)
        var touched: [String: String] = [:]
        for onlyFailures in [true, false] {
            progress(onlyFailures ? "notifications that failed to arrive" : "every notification of the window")
            let request = NotificationHistoryRequest(startDate: start, endDate: end, onlyFailures: onlyFailures ? true : nil)
            for try await page in client.notificationHistory(request) {
                for item in page.items {
                    summary.notificationsRead += 1
                    ingest(item.notification, into: &summary, touching: &touched)
                }
                progress("\(summary.notificationsRead) notifications read")
            }
        }
        for (customerID, transactionID) in touched.sorted(by: { $0.key < $1.key }) {
            progress("customer \(customerID)")
            do {
                try await reconcileCustomer(customerID, anyTransactionID: transactionID, into: &summary)
                summary.customers += 1
            } catch {
                summary.failures.append("customer \(customerID): \(error)")
            }
        }
        if summary.failures.isEmpty {
            try ledger.setReconciliationMark(.checkpoint, key: Self.checkpointKey, value: String(end))
            summary.checkpointMoved = true
        }
        return summary
    }

    /// Ingests one notification as the service's route does, and notes its customer: the
    /// service verified the transaction it carries, so here it is only read.
    private func ingest(_ notification: VerifiedSignedData<ResponseBodyV2DecodedPayload>, into summary: inout ReconciliationSummary,
                        touching touched: inout [String: String]) {
        do throws(ServiceError) {
            guard case .notification(let answer) = try service.answer(.ingestNotification(jws: notification.jwsRepresentation, customerID: nil)) else {
                return
            }
            summary.notificationOutcomes[answer.status, default: 0] += 1
        } catch {
            summary.failures.append("notification \(notification.payload.notificationUUID ?? "?"): \(error.message)")
            return
        }
        guard let signed = notification.payload.data?.signedTransactionInfo,
              let transactionID = try? CompactJWS(parsing: signed).decodePayload(as: JWSTransactionDecodedPayload.self).transactionId,
              let customerID = try? service.ledger.transaction(id: transactionID)?.customerID
        else { return }
        touched[customerID] = transactionID
    }

    /// The customer's transaction history from their revision, and their subscription
    /// statuses, ingested; then their revision moves to the history's last.
    private func reconcileCustomer(_ customerID: String, anyTransactionID: String, into summary: inout ReconciliationSummary) async throws {
        let ledger = service.ledger
        let revision = try ledger.reconciliationMark(.revision, key: customerID)?.value
        var last = revision
        for try await page in client.transactionHistory(anyTransactionID, from: revision) {
            for transaction in page.transactions {
                try ingest(transaction, customerID: customerID, into: &summary)
            }
            last = page.revision ?? last
        }
        for group in try await client.subscriptionStatuses(anyTransactionID).groups {
            for subscription in group.subscriptions {
                try ingest(subscription.transaction, customerID: customerID, into: &summary)
                _ = try ledger.ingest(renewalInfo: subscription.renewalInfo.payload, jwsRepresentation: subscription.renewalInfo.jwsRepresentation)
                summary.renewalInfosRead += 1
            }
        }
        if let last, last != revision {
            try ledger.setReconciliationMark(.revision, key: customerID, value: last)
        }
    }

    private func ingest(_ transaction: VerifiedTransaction, customerID: String, into summary: inout ReconciliationSummary) throws {
        summary.transactionsRead += 1
        do throws(ServiceError) {
            guard case .transaction(let answer) = try service.answer(.ingestTransaction(customerID: customerID, jws: transaction.jwsRepresentation)) else {
                return
            }
            summary.transactionOutcomes[answer.outcome, default: 0] += 1
        } catch {
            throw ReconciliationFailure(description: "transaction \(transaction.payload.transactionId ?? "?"): \(error.message)")
        }
    }
}

/// A transaction a reconcile could not ingest.
struct ReconciliationFailure: Error, CustomStringConvertible {
    let description: String
}
