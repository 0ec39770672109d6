import AppStoreServerAPI
import Foundation
import StoreCore
import StoreTesting

/// The pieces of `storerules store --json`: keys in snake case, signed payloads in compact form
/// beside their decoded payloads, dates as milliseconds since 1970 (``SignedPayloadJSON``'s
/// encoder writes them).
enum StoreJSON {
    /// A signed transaction with its decoded payload and the order id Look Up Order ID takes.
    struct Transaction: Encodable {
        var signedTransactionInfo: String
        @NullWhenAbsent var transaction: JWSTransactionDecodedPayload?
        @NullWhenAbsent var orderID: String?

        private enum CodingKeys: String, CodingKey {
            case signedTransactionInfo = "signed_transaction_info", transaction, orderID = "order_id"
        }
    }

    /// A purchase or approval that made a transaction, the notifications it sent and, for a
    /// purchase, what the policy's grant decision made of it.
    struct Success: Encodable {
        var result = "success"
        var signedTransactionInfo: String
        @NullWhenAbsent var transaction: JWSTransactionDecodedPayload?
        @NullWhenAbsent var orderID: String?
        var notifications: [Notification]
        var grant: GrantOutcome?

        init(_ transaction: Transaction, notifications: [Notification], grant: GrantOutcome? = nil) {
            signedTransactionInfo = transaction.signedTransactionInfo
            self.transaction = transaction.transaction
            orderID = transaction.orderID
            self.notifications = notifications
            self.grant = grant
        }

        private enum CodingKeys: String, CodingKey {
            case result, signedTransactionInfo = "signed_transaction_info", transaction, orderID = "order_id", notifications, grant
        }
    }

    /// A purchase that waits for a parent's approval.
    struct Pending: Encodable {
        var result = "pending"
        var request: Request
    }

    /// A purchase the customer cancelled.
    struct Cancelled: Encodable {
        var result = "userCancelled"
    }

    /// An Ask to Buy request.
    struct Request: Encodable {
        var id: String
        var customerID: String
        var productID: String
        var state: String
        var requestDate: Date
        @NullWhenAbsent var transactionID: String?

        init(_ request: AskToBuyRequest) {
            id = request.id
            customerID = request.customerID
            productID = request.productID
            state = request.state.rawValue
            requestDate = request.requestDate
            transactionID = request.transactionID
        }

        private enum CodingKeys: String, CodingKey {
            case id, customerID = "customer_id", productID = "product_id", state, requestDate = "request_date",
                 transactionID = "transaction_id"
        }
    }

    /// `{"requests": [...]}`.
    struct Requests: Encodable {
        var requests: [Request]
    }

    /// A notification in the outbox, its signed payload and what it says.
    struct Notification: Encodable {
        var sequence: Int
        var customerID: String
        @NullWhenAbsent var notificationType: String?
        @NullWhenAbsent var subtype: String?
        @NullWhenAbsent var notificationUUID: String?
        @NullWhenAbsent var signedDate: Date?
        @NullWhenAbsent var status: Int?
        var signedPayload: String
        @NullWhenAbsent var signedTransactionInfo: String?
        @NullWhenAbsent var signedRenewalInfo: String?

        init(_ notification: StoreNotification) {
            let payload = notification.payload
            sequence = notification.sequence
            customerID = notification.customerID
            notificationType = payload.notificationType?.rawValue
            subtype = payload.subtype?.rawValue
            notificationUUID = payload.notificationUUID
            signedDate = payload.signedDate
            status = payload.data?.status?.rawValue
            signedPayload = notification.signedPayload
            signedTransactionInfo = payload.data?.signedTransactionInfo
            signedRenewalInfo = payload.data?.signedRenewalInfo
        }

        private enum CodingKeys: String, CodingKey {
            case sequence, customerID = "customer_id", notificationType = "notification_type", subtype,
                 notificationUUID = "notification_uuid", signedDate = "signed_date", status, signedPayload = "signed_payload",
                 signedTransactionInfo = "signed_transaction_info", signedRenewalInfo = "signed_renewal_info"
        }
    }

    /// `{"notifications": [...]}`.
    struct Notifications: Encodable {
        var notifications: [Notification]
    }

    /// The store's time and the notifications a change sent.
    struct Changes: Encodable {
        var now: Date
        var notifications: [Notification]
    }

    /// A refund: the grants it reversed, the store's time and the notifications sent.
    struct Refund: Encodable {
        var transactionID: String
        var reversedGrants: [Grant]
        var now: Date
        var notifications: [Notification]

        private enum CodingKeys: String, CodingKey {
            case transactionID = "transaction_id", reversedGrants = "reversed_grants", now, notifications
        }
    }

    /// A new App Store Server API key.
    struct APIKey: Encodable {
        var issuerID: String
        var keyID: String
        var privateKeyPath: String
        var bundleID: String

        private enum CodingKeys: String, CodingKey {
            case issuerID = "issuer_id", keyID = "key_id", privateKeyPath = "private_key_path", bundleID = "bundle_id"
        }
    }

    /// Consumption information the local App Store Server API received.
    struct Consumption: Encodable {
        /// One request: its body as JSON, or as the text received when that is not JSON.
        struct Received: Encodable {
            var transactionID: String
            var version: Int
            var body: PassedThroughJSON
            var receivedDate: Date

            init(_ record: ConsumptionRecord) {
                transactionID = record.transactionID
                version = record.version
                body = PassedThroughJSON(parsing: Data(record.body.utf8)) ?? .string(record.body)
                receivedDate = record.receivedDate
            }

            private enum CodingKeys: String, CodingKey {
                case transactionID = "transaction_id", version, body, receivedDate = "received_date"
            }
        }

        var consumption: [Received]
    }

    /// A customer's restored transactions.
    struct Restored: Encodable {
        var customerID: String
        var transactions: [Transaction]

        private enum CodingKeys: String, CodingKey {
            case customerID = "customer_id", transactions
        }
    }

    /// A customer's entitled products, balances and the features the policy unlocks.
    struct Entitlements: Encodable {
        var customerID: String
        var entitlements: [String]
        var balances: [String: Int]
        var features: [String]
        var introOfferEligibility: [String: Bool]

        private enum CodingKeys: String, CodingKey {
            case customerID = "customer_id", entitlements, balances, features, introOfferEligibility = "intro_offer_eligibility"
        }
    }

    /// `{"customers": [...]}`.
    struct Customers: Encodable {
        var customers: [Entitlements]
    }

    /// The decoded payload of a compact JWS, nil when it does not decode.
    static func payload<Payload: Decodable>(_ jws: String, as type: Payload.Type) -> Payload? {
        try? CompactJWS(parsing: jws).decodePayload(as: type)
    }
}

extension GrantOutcome: Encodable {
    private enum CodingKeys: String, CodingKey {
        case state, grants, reason
    }

    /// `{"state": "granted", "grants": [{"item", "amount"}]}`, with `"reason"` when unfinished.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(grants, forKey: .grants)
        switch state {
        case .granted: try container.encode("granted", forKey: .state)
        case .revokedBeforeGrant: try container.encode("revoked_before_grant", forKey: .state)
        case .unfinished(let reason):
            try container.encode("unfinished", forKey: .state)
            try container.encode(reason.description, forKey: .reason)
        }
    }
}
