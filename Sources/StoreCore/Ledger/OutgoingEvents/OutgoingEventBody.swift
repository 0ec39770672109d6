import Foundation
import SignedData

/// The JSON an outgoing event is delivered as, in the envelope the Standard Webhooks
/// specification recommends: `type`, `timestamp` and `data`.
struct OutgoingEventBody: Encodable {
    /// The event's type.
    var type: OutgoingEventType
    /// When the change was written.
    var timestamp: Date
    /// What the event says.
    var data: OutgoingEventData

    /// The text every delivery sends: the same as `OutgoingEventJSON.encoder` writes for the
    /// body, with `state`, the customer's state already written (``ReportedCustomerState``'s
    /// JSON), spliced in where it goes, since every event of a change carries the same state.
    func text(state: [UInt8]) -> String {
        var writer = JSONTextWriter(capacity: 1024 + state.count)
        writer.writeObject { object in
            object.member("data") { $0.writeObject { data.writeMembers(to: &$0, state: state) } }
            object.member("timestamp", ISO8601Milliseconds.text(of: timestamp))
            object.member("type", type.rawValue)
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// The `data` of an outgoing event; docs/events.md describes each field.
struct OutgoingEventData: Encodable {
    var id: String
    var customerID: String
    var sequence: Int64
    var policyVersion: String?
    var cause: OutgoingEventCause
    var transaction: ReportedTransaction?
    var subscription: ReportedSubscription?
    var previousProductID: String?
    var effective: String?
    var grants: [Grant]?
    var previousEntitlements: [String]?
    var refundRequest: ReportedRefundRequest?
    var state: ReportedCustomerState

    private enum CodingKeys: String, CodingKey {
        case id, customerID = "customer", sequence, policyVersion = "policy_version", cause, transaction, subscription
        case previousProductID = "previous_product_id", effective, grants, previousEntitlements = "previous_entitlements"
        case refundRequest = "refund_request", state
    }

    /// Writes the members, in the order of their keys, with `state` as it was written.
    func writeMembers(to object: inout JSONObjectWriter, state: [UInt8]) {
        object.member("cause", cause)
        object.member("customer", customerID)
        object.member("effective", effective)
        if let grants { object.member("grants", grants) }
        object.member("id", id)
        object.member("policy_version", policyVersion)
        if let previousEntitlements { object.member("previous_entitlements", previousEntitlements) }
        object.member("previous_product_id", previousProductID)
        if let refundRequest { object.member("refund_request", refundRequest) }
        object.member("sequence", Int(sequence))
        object.member("state", written: state)
        if let subscription { object.member("subscription", subscription) }
        if let transaction { object.member("transaction", transaction) }
    }
}

/// The one JSON form of the outbox: keys sorted, dates in ISO 8601 with milliseconds in UTC
/// (``ISO8601Milliseconds``), for event bodies and for the reported state kept beside them.
enum OutgoingEventJSON {
    /// Writes event bodies and reported states.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601Milliseconds.text(of: date))
        }
        return encoder
    }()

    /// Reads reported states back; a date reads back as the millisecond it was written at.
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = time(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not a date"))
            }
            return date
        }
        return decoder
    }()

    /// The state last reported, from the text the outbox wrote: read without `JSONDecoder` when
    /// it is plain (``SignedData/PlainJSONDecoding``), as it is unless a name is not printable
    /// ASCII or needs escaping, or a balance is negative; nil when it cannot be read.
    static func reportedState(from text: String) -> ReportedCustomerState? {
        PlainJSONDecoding.decode(ReportedCustomerState.self, from: text, dateFromText: time(from:))
            ?? (try? decoder.decode(ReportedCustomerState.self, from: Data(text.utf8)))
    }

    /// The time `text` writes, at the millisecond it was written at.
    private static func time(from text: String) -> Date? {
        ISO8601Milliseconds.date(from: text).map { Date(millisecondsSince1970: Int64(($0.timeIntervalSince1970 * 1000).rounded())) }
    }
}
