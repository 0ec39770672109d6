import Foundation

extension Ledger {
    /// This ledger over the same storage, recording outgoing events as `recording` says.
    public func recordingOutgoingEvents(_ recording: OutgoingEventRecording) -> Ledger {
        Ledger(storage: storage, outgoingEvents: recording)
    }

    /// Writes the events a change of `customerID` makes, inside the write that made it: the
    /// customer's outbox row is held, the state after the change is read in the same write and
    /// compared with the state last reported, and each event is numbered after the customer's
    /// last one. Does nothing when the ledger records no events.
    func recordOutgoingEvents(
        of customerID: String, settling facts: [TransactionIngestResult], cause: OutgoingEventCause,
        refundRequest: ConsumptionRequestRecord? = nil, in ledger: any LedgerWriting
    ) throws {
        guard let recording = outgoingEvents else { return }
        let now = recording.clock()
        let row = try ledger.lockOutgoingEventState(customerID: customerID)
        let previous = try row.reported.map { try OutgoingEventJSON.decoder.decode(ReportedCustomerState.self, from: Data($0.utf8)) }
        let catalog = recording.catalog()
        let snapshot = try ledger.customerSnapshot(customerID: customerID, signedData: false)
        let state = try CustomerState(
            customerID: customerID, transactions: snapshot.transactions, renewalInfos: snapshot.renewalInfos,
            balances: snapshot.balances, catalog: catalog, at: now)
        let current = ReportedCustomerState(state)
        let classifier = OutgoingEventClassifier(
            previous: previous ?? .empty, current: current,
            level: { catalog?.product(id: $0)?.subscription?.groupLevel })
        var drafts = classifier.events(settling: facts)
        if let refundRequest, refundRequest.state != .pending {
            drafts.append(OutgoingEventDraft(.refundRequestAnswered, refundRequest: ReportedRefundRequest(refundRequest)))
        }
        let reviewDate = ReportedCustomerState.reviewDate(of: state, after: now)
        guard !drafts.isEmpty || previous != current else {
            try ledger.updateOutgoingEventState(
                customerID: customerID, sequence: row.sequence, reported: row.reported,
                reviewDate: reviewDate?.millisecondsSince1970)
            return
        }
        let created = now.millisecondsSince1970
        let policyVersion = recording.policyVersion()
        var sequence = row.sequence
        let events = try drafts.map { draft -> OutgoingEvent in
            sequence += 1
            let id = OutgoingEvent.newID()
            let data = OutgoingEventData(
                id: id, customerID: customerID, sequence: sequence, policyVersion: policyVersion, cause: cause,
                transaction: draft.transaction.map(ReportedTransaction.init), subscription: draft.subscription,
                previousProductID: draft.previousProductID, effective: draft.effective, grants: draft.grants,
                previousEntitlements: draft.previousEntitlements, refundRequest: draft.refundRequest, state: current)
            let body = try OutgoingEventBody(type: draft.type, timestamp: now, data: data).text()
            return OutgoingEvent(
                id: id, customerID: customerID, sequence: sequence, type: draft.type, createdDate: created, body: body,
                state: .pending, attempts: 0, nextAttemptDate: created, leaseUntil: 0, lastError: nil, deliveredDate: nil)
        }
        try ledger.insertOutgoingEvents(events)
        let reported = String(decoding: try OutgoingEventJSON.encoder.encode(current), as: UTF8.self)
        try ledger.updateOutgoingEventState(
            customerID: customerID, sequence: sequence, reported: reported, reviewDate: reviewDate?.millisecondsSince1970)
    }

    /// Reports what the clock alone changed: for each customer (at most `limit`) whose reported
    /// state had a period or grace period ending by now, a write derives the state again and
    /// records its events (a subscription expired, in billing retry, …). Returns how many
    /// customers were looked at; 0 when the ledger records no events.
    @discardableResult
    public func reviewOutgoingEventStates(limit: Int = 100) throws -> Int {
        guard let recording = outgoingEvents else { return 0 }
        let now = recording.clock().millisecondsSince1970
        let customers = try reading { try $0.customersToReview(at: now, limit: limit) }
        for customerID in customers {
            try writing { try recordOutgoingEvents(of: customerID, settling: [], cause: OutgoingEventCause(source: .clock), in: $0) }
        }
        return customers.count
    }
}
