import Foundation
import SignedData

extension Ledger {
    /// How many distinct event names a customer keeps, unless told otherwise.
    public static let defaultMaximumEventNames = 100

    /// Records that `name` happened to `customerID` at `date` (at `placement`, when given),
    /// recording the customer when the ledger does not know them yet.
    ///
    /// - Returns: the customer's summary of `name`, this event included.
    /// A customer keeps at most `maximumNames` distinct event names (``defaultMaximumEventNames``
    /// by default), so that a client inventing names cannot make every decision about the
    /// customer slower and every trace larger; a name the customer has is always recorded.
    ///
    /// - Throws: ``LedgerError/invalidCustomerID(_:)``; ``LedgerError/invalidEvent(_:)`` for an
    ///   empty name or one over ``MerchandisingEvent/maximumNameLength`` characters;
    ///   ``LedgerError/tooManyEventNames(customerID:limit:)`` for a new name past the cap; a
    ///   storage failure.
    @discardableResult
    public func recordEvent(customerID: String, name: String, placement: String? = nil, at date: Date = Date(),
                            maximumNames: Int = Ledger.defaultMaximumEventNames) throws -> EventSummary {
        try CustomerID.validated(customerID)
        guard !name.isEmpty, name.count <= MerchandisingEvent.maximumNameLength, !name.containsControlCharacter else {
            throw LedgerError.invalidEvent("an event's name is 1 to \(MerchandisingEvent.maximumNameLength) characters without control characters")
        }
        if let placement, placement.isEmpty || placement.count > MerchandisingEvent.maximumNameLength || placement.containsControlCharacter {
            throw LedgerError.invalidEvent(
                "an event's placement, when given, is 1 to \(MerchandisingEvent.maximumNameLength) characters without control characters")
        }
        let now = Self.nowInMilliseconds()
        return try writing { ledger in
            let names = try ledger.eventNames(customerID: customerID)
            guard names.contains(name) || names.count < maximumNames else {
                throw LedgerError.tooManyEventNames(customerID: customerID, limit: maximumNames)
            }
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
