extension SQLLedgerTransaction {
    public func outgoingEvents(_ query: OutgoingEventQuery) throws -> [OutgoingEvent] {
        try connection.rows(
            """
            SELECT \(sql: LedgerRecords.outgoingEventColumns) FROM outgoing_event WHERE \(sql: Self.condition(of: query))
            ORDER BY created_date DESC, customer_id\(.binaryCollation), sequence DESC LIMIT \(max(query.limit, 0))
            """
        ).map(LedgerRecords.outgoingEvent(from:))
    }

    public func customersToReview(at now: Int64, limit: Int) throws -> [String] {
        try connection.rows(
            """
            SELECT customer_id FROM outgoing_event_state WHERE review_date IS NOT NULL AND review_date <= \(now)
            ORDER BY review_date LIMIT \(max(limit, 0))
            """
        ).map { try $0.text("customer_id") }
    }

    public func outgoingEventBacklog(at now: Int64) throws -> OutgoingEventBacklog {
        let late = now - OutgoingEventBacklog.lateAfterMilliseconds
        guard let row = try connection.firstRow(
            """
            SELECT
                (SELECT count(*) FROM outgoing_event WHERE state = 'pending') AS pending,
                (SELECT count(*) FROM outgoing_event WHERE state = 'pending' AND created_date <= \(late)) AS late,
                (SELECT count(*) FROM outgoing_event WHERE state = 'failed') AS failed,
                (SELECT min(created_date) FROM outgoing_event WHERE state = 'pending') AS oldest
            """)
        else { return OutgoingEventBacklog(pending: 0, late: 0, failed: 0, oldestPendingDate: nil) }
        return OutgoingEventBacklog(
            pending: Int(try row.integer("pending")), late: Int(try row.integer("late")), failed: Int(try row.integer("failed")),
            oldestPendingDate: try row.optionalInteger("oldest"))
    }

    public func outgoingEventStates() throws -> [OutgoingEventStateRecord] {
        try connection.rows(
            "SELECT customer_id, sequence, reported, review_date FROM outgoing_event_state ORDER BY customer_id\(.binaryCollation)"
        ).map { row in
            OutgoingEventStateRecord(
                customerID: try row.text("customer_id"),
                row: OutgoingEventStateRow(sequence: try row.integer("sequence"), reported: try row.optionalText("reported"),
                                           reviewDate: try row.optionalInteger("review_date")))
        }
    }

    public func hasOutgoingEventStates() throws -> Bool {
        try connection.firstRow("SELECT customer_id FROM outgoing_event_state LIMIT 1") != nil
    }

    public func lockOutgoingEventState(customerID: String) throws -> OutgoingEventStateRow {
        guard let row = try connection.firstRow("\(sql: Self.holdingOutgoingEventState(customerID: customerID)) RETURNING sequence, reported, review_date")
        else { throw LedgerStorageFailure(message: "the outbox row of \(customerID) was not returned", isTransient: true) }
        return try Self.outgoingEventStateRow(from: row)
    }

    public func holdOutgoingEventState(customerID: String) throws -> HeldOutgoingEventState {
        guard connection.dialect == .postgres else {
            // Statements are no round trips here, and one read of each kind costs SQLite less than gathering JSON.
            let row = try lockOutgoingEventState(customerID: customerID)
            let transactions = try connection.rows(CustomerSnapshotStatement.reportedStateTransactions(customerID: customerID))
                .map(LedgerRecords.transaction(from:))
            let subscriptionIDs = Set(transactions.filter { $0.productType == .autoRenewableSubscription }.map(\.originalID))
            let renewalInfos = try subscriptionIDs.sorted().compactMap { try renewalInfo(originalTransactionID: $0) }
            return (row, (transactions, renewalInfos, try balances(customerID: customerID)))
        }
        // Sent with the read that follows, in one round trip. That read is a statement of its
        // own, so it sees what the writes committed before the row was held.
        try connection.send(Self.holdingOutgoingEventState(customerID: customerID))
        guard let row = try connection.firstRow(
            """
            SELECT sequence, reported, review_date, \(sql: CustomerSnapshotStatement.reportedStateSourceColumns(customerID: customerID))
            FROM outgoing_event_state WHERE customer_id = \(customerID)
            """)
        else { throw LedgerStorageFailure(message: "the outbox row of \(customerID) was not returned", isTransient: true) }
        return (try Self.outgoingEventStateRow(from: row), try CustomerSnapshotStatement.stateSources(from: row))
    }

    /// Makes the customer's outbox row when missing; the no-op update of an existing row holds
    /// it, as a new row is held, until commit.
    private static func holdingOutgoingEventState(customerID: String) -> LedgerSQL {
        """
        INSERT INTO outgoing_event_state (customer_id, sequence, reported, review_date) VALUES (\(customerID), 0, NULL, NULL)
        ON CONFLICT (customer_id) DO UPDATE SET sequence = outgoing_event_state.sequence
        """
    }

    private static func outgoingEventStateRow(from row: some LedgerRecordRow) throws -> OutgoingEventStateRow {
        OutgoingEventStateRow(sequence: try row.integer("sequence"), reported: try row.optionalText("reported"),
                              reviewDate: try row.optionalInteger("review_date"))
    }

    public func updateOutgoingEventState(customerID: String, sequence: Int64, reported: String?, reviewDate: Int64?) throws {
        try connection.send(
            """
            UPDATE outgoing_event_state SET sequence = \(sequence), reported = \(reported), review_date = \(reviewDate)
            WHERE customer_id = \(customerID)
            """)
    }

    public func insertOutgoingEvents(_ events: [OutgoingEvent]) throws {
        guard !events.isEmpty else { return }
        let rows = events.map { event -> LedgerSQL in
            """
            (\(event.id), \(event.customerID), \(event.sequence), \(event.typeName), \(event.createdDate), \(event.body),
             \(event.state.rawValue), \(event.attempts), \(event.nextAttemptDate), \(event.leaseUntil), \(event.lastError),
             \(event.deliveredDate), \(event.attemptsSince))
            """
        }
        try connection.send(
            "INSERT INTO outgoing_event (\(sql: LedgerRecords.outgoingEventColumns)) VALUES \(sql: .joined(rows, separator: ", "))")
    }

    public func claimOutgoingEvents(at now: Int64, heldUntil: Int64, limit: Int) throws -> [OutgoingEvent] {
        try connection.rows(Self.outgoingEventClaim(at: now, heldUntil: heldUntil, limit: limit)).map(LedgerRecords.outgoingEvent(from:))
    }

    /// The statement that claims a batch of due events: the earliest due first, each
    /// customer's in sequence, read through ``LedgerSchemaDescription/outgoingEventDue`` in its
    /// order so that a batch stops once it is taken, whatever waits behind it.
    static func outgoingEventClaim(at now: Int64, heldUntil: Int64, limit: Int) -> LedgerSQL {
        """
        UPDATE outgoing_event SET lease_until = \(heldUntil)
        WHERE event_id IN (
            SELECT due.event_id FROM outgoing_event AS due\(.indexedBy(LedgerSchemaDescription.outgoingEventDue.name))
            WHERE due.state = 'pending' AND due.next_attempt_date <= \(now) AND due.lease_until <= \(now)
              AND NOT EXISTS (
                  SELECT 1 FROM outgoing_event AS earlier
                  WHERE earlier.customer_id = due.customer_id AND earlier.sequence < due.sequence AND earlier.state = 'pending')
            ORDER BY due.next_attempt_date, due.created_date LIMIT \(max(limit, 0))\(.rowLockSkippingLocked))
        RETURNING \(sql: LedgerRecords.outgoingEventColumns)
        """
    }

    public func recordOutgoingEventAttempt(id: String, heldUntil: Int64, _ attempt: OutgoingEventAttempt) throws {
        let change: LedgerSQL = switch attempt {
        case .delivered(let date):
            "state = 'delivered', delivered_date = \(date), last_error = NULL, attempts = attempts + 1"
        case .retry(let error, let date):
            "next_attempt_date = \(date), last_error = \(error), attempts = attempts + 1"
        case .failed(let error):
            "state = 'failed', last_error = \(error), attempts = attempts + 1"
        case .skipped:
            "state = 'skipped'"
        }
        try connection.send(
            """
            UPDATE outgoing_event SET \(sql: change), lease_until = 0
            WHERE event_id = \(id) AND state = 'pending' AND lease_until = \(heldUntil)
            """)
    }

    public func requeueOutgoingEvents(_ query: OutgoingEventQuery, at now: Int64) throws -> Int {
        try connection.rows(
            """
            UPDATE outgoing_event SET state = 'pending', next_attempt_date = \(now), lease_until = 0, delivered_date = NULL,
                attempts = 0, attempts_since = \(now)
            WHERE state <> 'pending' AND \(sql: Self.condition(of: query))
            RETURNING event_id
            """
        ).count
    }

    public func deleteSentOutgoingEvents(writtenBefore date: Int64, limit: Int) throws -> Int {
        try connection.rows(
            """
            DELETE FROM outgoing_event WHERE event_id IN (
                SELECT event_id FROM outgoing_event
                WHERE state IN ('delivered', 'skipped') AND created_date < \(date) LIMIT \(max(limit, 0)))
            RETURNING event_id
            """
        ).count
    }

    /// The conditions of `query` on `outgoing_event`, ignoring its limit.
    private static func condition(of query: OutgoingEventQuery) -> LedgerSQL {
        var conditions: [LedgerSQL] = ["1 = 1"]
        if let state = query.state { conditions.append("state = \(state.rawValue)") }
        if let customerID = query.customerID { conditions.append("customer_id = \(customerID)") }
        if let since = query.since { conditions.append("created_date >= \(since)") }
        if let before = query.before { conditions.append("created_date < \(before)") }
        if !query.ids.isEmpty {
            let ids = query.ids.map { id -> LedgerSQL in "\(id)" }
            conditions.append("event_id IN (\(sql: .joined(ids, separator: ", ")))")
        }
        return .joined(conditions, separator: " AND ")
    }
}
