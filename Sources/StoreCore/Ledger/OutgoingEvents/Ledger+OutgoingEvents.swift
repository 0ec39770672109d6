import Foundation

extension Ledger {
    /// This ledger over the same storage, recording outgoing events as `recording` says.
    public func recordingOutgoingEvents(_ recording: OutgoingEventRecording) -> Ledger {
        Ledger(storage: storage, outgoingEvents: recording)
    }

    /// Whether outgoing events were ever recorded in this ledger: then every writer of it should
    /// record them, or the changes it writes go unreported (``Service`` does so by itself).
    public func hasRecordedOutgoingEvents() throws -> Bool {
        try reading { try $0.hasOutgoingEventStates() }
    }

    /// Writes the events a change of `customerID` makes, inside the write that made it: the
    /// customer's outbox row is held, the state after the change is read in the same write (at the
    /// recording's clock) and compared with the state last reported, and each event is numbered
    /// after the customer's last one. Does nothing when the ledger records no events.
    ///
    /// A reported state that cannot be read back (written by another version) is taken as
    /// empty: the customer's next events compare with nothing rather than stop their changes.
    func recordOutgoingEvents(
        of customerID: String, settling facts: [TransactionIngestResult], cause: OutgoingEventCause,
        refundRequest: ConsumptionRequestRecord? = nil, in ledger: any LedgerWriting
    ) throws {
        guard let recording = outgoingEvents else { return }
        let now = recording.clock()
        let (row, sources) = try ledger.holdOutgoingEventState(customerID: customerID)
        let previous = row.reported.flatMap(OutgoingEventJSON.reportedState(from:))
        let catalog = recording.catalog()
        let state = try CustomerState(
            customerID: customerID, transactions: sources.transactions, renewalInfos: sources.renewalInfos,
            balances: sources.balances, catalog: catalog, at: now)
        let classification = OutgoingEventClassifier(
            previous: previous ?? .empty, current: ReportedCustomerState(state),
            level: { catalog?.product(id: $0)?.subscription?.groupLevel }
        ).classify(settling: facts)
        var drafts = classification.events
        if let refundRequest, refundRequest.state != .pending {
            drafts.append(OutgoingEventDraft(.refundRequestAnswered, refundRequest: ReportedRefundRequest(refundRequest)))
        }
        let reviewDate = ReportedCustomerState.reviewDate(of: state, after: now)?.millisecondsSince1970
        let reported = classification.reported
        guard !drafts.isEmpty || previous != reported else {
            if reviewDate != row.reviewDate {
                try ledger.updateOutgoingEventState(customerID: customerID, sequence: row.sequence, reported: row.reported, reviewDate: reviewDate)
            }
            return
        }
        // The outbox keeps the host's time, which delivery's schedule and the metrics read.
        let written = Self.nowInMilliseconds()
        let policyVersion = recording.policyVersion()
        var sequence = row.sequence
        var stateWriter = JSONTextWriter(capacity: 512)
        stateWriter.write(reported)
        let reportedJSON = stateWriter.bytes
        let events = drafts.map { draft -> OutgoingEvent in
            sequence += 1
            let id = OutgoingEvent.newID()
            let data = OutgoingEventData(
                id: id, customerID: customerID, sequence: sequence, policyVersion: policyVersion, cause: cause,
                transaction: draft.transaction.map(ReportedTransaction.init), subscription: draft.subscription,
                previousProductID: draft.previousProductID, effective: draft.effective, grants: draft.grants,
                previousEntitlements: draft.previousEntitlements, refundRequest: draft.refundRequest, state: reported)
            let body = OutgoingEventBody(type: draft.type, timestamp: Date(millisecondsSince1970: written), data: data).text(state: reportedJSON)
            return OutgoingEvent(
                id: id, customerID: customerID, sequence: sequence, typeName: draft.type.rawValue, createdDate: written, body: body,
                state: .pending, attempts: 0, nextAttemptDate: written, leaseUntil: 0, lastError: nil, deliveredDate: nil,
                attemptsSince: written)
        }
        try ledger.insertOutgoingEvents(events)
        try ledger.updateOutgoingEventState(customerID: customerID, sequence: sequence, reported: String(decoding: reportedJSON, as: UTF8.self),
                                            reviewDate: reviewDate)
    }

    /// Reports what the clock alone changed: for each customer (at most `limit`) whose reported
    /// state had a period or grace period ending by now, a write derives the state again and
    /// records its events (a subscription expired, in billing retry, …). Returns how many
    /// customers were looked at; 0 when the ledger records no events.
    ///
    /// - Throws: ``OutgoingEventReviewError`` naming the customers whose write failed, after the
    ///   others were reviewed.
    @discardableResult
    public func reviewOutgoingEventStates(limit: Int = 100) throws -> Int {
        guard let recording = outgoingEvents else { return 0 }
        let now = recording.clock().millisecondsSince1970
        let customers = try reading { try $0.customersToReview(at: now, limit: limit) }
        var failures: [String] = []
        for customerID in customers {
            do {
                try writing { try recordOutgoingEvents(of: customerID, settling: [], cause: OutgoingEventCause(source: .clock), in: $0) }
            } catch {
                failures.append("\(customerID): \(error)")
            }
        }
        guard failures.isEmpty else { throw OutgoingEventReviewError(failures: failures) }
        return customers.count
    }
}

/// Customers whose state the clock changed and whose review failed; the others were reviewed.
public struct OutgoingEventReviewError: Error, CustomStringConvertible {
    /// Each customer, with why.
    public let failures: [String]

    public var description: String {
        "the review of \(failures.count) customer\(failures.count == 1 ? "" : "s") failed: " + failures.joined(separator: "; ")
    }
}
