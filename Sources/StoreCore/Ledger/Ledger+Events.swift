import Foundation

extension Ledger {
    /// Records that `name` happened to `customerID` at `date` (at `placement`, when given),
    /// recording the customer when the ledger does not know them yet.
    ///
    /// - Returns: the customer's summary of `name`, this event included.
    /// - Throws: ``LedgerError/invalidCustomerID(_:)``; ``LedgerError/invalidEvent(_:)`` for an
    ///   empty name or one over ``MerchandisingEvent/maximumNameLength`` characters; a storage failure.
    @discardableResult
    public func recordEvent(customerID: String, name: String, placement: String? = nil, at date: Date = Date()) throws -> EventSummary {
        try CustomerID.validated(customerID)
        guard !name.isEmpty, name.count <= MerchandisingEvent.maximumNameLength else {
            throw LedgerError.invalidEvent("an event's name is 1 to \(MerchandisingEvent.maximumNameLength) characters")
        }
        if let placement, placement.isEmpty || placement.count > MerchandisingEvent.maximumNameLength {
            throw LedgerError.invalidEvent("an event's placement, when given, is 1 to \(MerchandisingEvent.maximumNameLength) characters")
        }
        let now = Self.nowInMilliseconds()
        return try writing { ledger in
            try ledger.insertCustomer(id: customerID, appAccountToken: nil, createdDate: now)
            try ledger.insertEvent(MerchandisingEvent(
                customerID: customerID, name: name, placement: placement, occurredDate: date.millisecondsSince1970))
            guard let summary = try ledger.eventSummaries(customerID: customerID)[name] else {
                throw LedgerError.storage(LedgerStorageFailure(message: "the event \(name) was not stored", isTransient: true))
            }
            return summary
        }
    }

    /// A customer's events by name; see ``EventSummary``.
    public func eventSummaries(customerID: String) throws -> [String: EventSummary] {
        try reading { try $0.eventSummaries(customerID: customerID) }
    }
}
