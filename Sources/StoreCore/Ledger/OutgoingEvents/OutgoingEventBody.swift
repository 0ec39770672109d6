import Foundation

/// The JSON an outgoing event is delivered as, in the envelope the Standard Webhooks
/// specification recommends: `type`, `timestamp` and `data`.
struct OutgoingEventBody: Encodable {
    /// The event's type.
    var type: OutgoingEventType
    /// When the change was written.
    var timestamp: Date
    /// What the event says.
    var data: OutgoingEventData

    /// The text every delivery of the event sends.
    func text() throws -> String {
        String(decoding: try OutgoingEventJSON.encoder.encode(self), as: UTF8.self)
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
            guard let date = ISO8601Milliseconds.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not a date"))
            }
            return Date(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded()))
        }
        return decoder
    }()
}
