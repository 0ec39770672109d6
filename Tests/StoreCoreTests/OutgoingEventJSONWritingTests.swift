import Foundation
import SignedData
@testable import StoreCore
import Testing

/// The outbox writes its bodies and reported states through `JSONTextWriter`; they must be the
/// text `JSONEncoder` writes for the same values, and read back as they were written.
@Suite struct OutgoingEventJSONWritingTests {
    static func decoded<Value: Decodable>(_ type: Value.Type, _ object: [String: Any]) throws -> Value {
        try OutgoingEventJSON.decoder.decode(type, from: JSONSerialization.data(withJSONObject: object))
    }

    static func written(_ value: some JSONWritable) -> String {
        var writer = JSONTextWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try OutgoingEventJSON.encoder.encode(value), as: UTF8.self)
    }

    /// A subscription with every member, and one with only those always there.
    static func subscriptions() throws -> [ReportedSubscription] {
        [
            try decoded(ReportedSubscription.self, [
                "original_transaction_id": "1000000000000001", "group_id": "G/1", "product_id": "pass.monthly",
                "transaction_id": "1000000000000009", "status": "inGracePeriod", "will_auto_renew": false,
                "renews_to_product_id": "pass.\"annual\"", "expires_date": "2026-12-04T16:27:30.941Z",
                "grace_period_expires_date": "2026-12-20T00:00:00.001Z", "expiration_reason": 2, "group_level": 1,
                "is_trial": true, "is_family_shared": true,
            ]),
            try decoded(ReportedSubscription.self, [
                "original_transaction_id": "t0", "group_id": "G1", "product_id": "pass.basic", "transaction_id": "t0",
                "status": "expired", "is_trial": false, "is_family_shared": false,
            ]),
        ]
    }

    static func state(balances: [String: Int]) throws -> ReportedCustomerState {
        try decoded(ReportedCustomerState.self, [
            "entitlements": ["pass.monthly", "skin\\bath", "ünïcode"],
            "subscriptions": try subscriptions().map { try JSONSerialization.jsonObject(with: OutgoingEventJSON.encoder.encode($0)) },
            "balances": balances,
        ])
    }

    @Test("a reported state, its subscriptions and an empty state are written as JSONEncoder writes them, balances in key order")
    func statesMatchTheEncoder() throws {
        let balances = ["pellet": 5, "Pellet": 2, "a_b": 1, "aB": 3, "item10": 10, "item9": 9, "seed\ttray": 4, "ä": 1]
        for state in [try Self.state(balances: balances), try Self.state(balances: [:]), ReportedCustomerState.empty] {
            #expect(Self.written(state) == (try Self.encoded(state)))
        }
        for subscription in try Self.subscriptions() {
            #expect(Self.written(subscription) == (try Self.encoded(subscription)))
        }
    }

    @Test("an event's body, with the state written once and spliced in, is the text JSONEncoder writes for it")
    func bodiesMatchTheEncoder() throws {
        let state = try Self.state(balances: ["pellet": 30])
        let transaction = try Self.decoded(ReportedTransaction.self, [
            "transaction_id": "2000000000000002", "original_transaction_id": "2000000000000001", "product_id": "pellets.30",
            "product_type": "Consumable", "purchase_date": "2026-01-02T03:04:05.006Z", "expires_date": "2026-02-02T03:04:05.006Z",
            "quantity": 3, "price": 4_990, "currency": "EUR", "storefront": "FRA", "revocation_date": "2026-01-03T00:00:00.000Z",
            "revocation_reason": 1, "is_family_shared": false, "environment": "Sandbox",
        ])
        let refund = try Self.decoded(ReportedRefundRequest.self, [
            "notification_uuid": "6f1b", "transaction_id": "2000000000000002", "state": "answered", "reason": "unintended",
            "policy_version": "sha256:ab",
        ])
        let full = OutgoingEventData(
            id: "evt_0123", customerID: "customer \"7\"", sequence: 12, policyVersion: "v/2",
            cause: OutgoingEventCause(source: .notification, notificationUUID: "u-1", notificationType: "DID_RENEW", subtype: "BILLING_RECOVERY"),
            transaction: transaction, subscription: try Self.subscriptions()[0], previousProductID: "pass.basic", effective: "now",
            grants: [Grant(item: "pass.days", amount: 30), Grant(item: "seed", amount: 1)], previousEntitlements: [],
            refundRequest: refund, state: state)
        let bare = OutgoingEventData(
            id: "evt_4567", customerID: "c", sequence: 1, policyVersion: nil, cause: OutgoingEventCause(source: .clock),
            transaction: nil, subscription: nil, previousProductID: nil, effective: nil, grants: nil, previousEntitlements: nil,
            refundRequest: nil, state: .empty)
        for (type, data) in [(OutgoingEventType.subscriptionUpgraded, full), (.subscriptionExpired, bare)] {
            let body = OutgoingEventBody(type: type, timestamp: Date(millisecondsSince1970: 1_796_400_000_123), data: data)
            var stateWriter = JSONTextWriter()
            stateWriter.write(data.state)
            #expect(body.text(state: stateWriter.bytes) == (try Self.encoded(body)))
        }
    }

    @Test("a state written by the outbox reads back as it was, plain or with a negative balance and an escaped item that need JSONDecoder")
    func statesReadBack() throws {
        for balances in [["pellet": 5], ["pellet": -2, "seed\"tray": 1], [:]] {
            let state = try Self.state(balances: balances)
            #expect(OutgoingEventJSON.reportedState(from: Self.written(state)) == state)
        }
        let plainState = try Self.decoded(ReportedCustomerState.self, [
            "entitlements": ["pass.monthly"], "balances": ["pellet": 5],
            "subscriptions": [[
                "original_transaction_id": "1000000000000001", "group_id": "G1", "product_id": "pass.monthly",
                "transaction_id": "1000000000000009", "status": "subscribed", "will_auto_renew": true,
                "expires_date": "2026-12-04T16:27:30.941Z", "group_level": 2, "is_trial": false, "is_family_shared": false,
            ]],
        ])
        let plain = Self.written(plainState)
        #expect(PlainJSONDecoding.decode(ReportedCustomerState.self, from: plain, dateFromText: ISO8601Milliseconds.date(from:)) == plainState,
                "a plain state is read without JSONDecoder")
        #expect(OutgoingEventJSON.reportedState(from: plain) == plainState)
        #expect(OutgoingEventJSON.reportedState(from: "{\"entitlements\":[]}") == nil, "a state missing its members is not read")
        #expect(OutgoingEventJSON.reportedState(from: "not json") == nil)
    }

    @Test("new event ids are evt_ and 32 lowercase hexadecimal digits, and differ")
    func eventIDs() {
        let ids = (0..<1000).map { _ in OutgoingEvent.newID() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(20) {
            #expect(id.hasPrefix("evt_") && id.count == 36)
            #expect(id.dropFirst(4).allSatisfy { "0123456789abcdef".contains($0) })
        }
    }
}
