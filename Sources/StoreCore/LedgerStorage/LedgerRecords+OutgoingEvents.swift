extension LedgerRecords {
    /// The columns of an outgoing event, in the order ``outgoingEvent(from:)`` reads them.
    public static let outgoingEventColumns = """
        event_id, customer_id, sequence, event_type, created_date, body, state, attempts, next_attempt_date, lease_until, \
        last_error, delivered_date, attempts_since
        """

    /// An outgoing event from a row of ``outgoingEventColumns``.
    public static func outgoingEvent(from row: some LedgerRecordRow) throws -> OutgoingEvent {
        let stateName = try row.text("state")
        guard let state = OutgoingEvent.DeliveryState(rawValue: stateName) else {
            throw LedgerStorageFailure(message: "outgoing event in unknown state \(stateName)", isTransient: false)
        }
        return OutgoingEvent(
            id: try row.text("event_id"), customerID: try row.text("customer_id"), sequence: try row.integer("sequence"),
            typeName: try row.text("event_type"), createdDate: try row.integer("created_date"), body: try row.text("body"), state: state,
            attempts: Int(try row.integer("attempts")), nextAttemptDate: try row.integer("next_attempt_date"),
            leaseUntil: try row.integer("lease_until"), lastError: try row.optionalText("last_error"),
            deliveredDate: try row.optionalInteger("delivered_date"), attemptsSince: try row.integer("attempts_since"))
    }
}
