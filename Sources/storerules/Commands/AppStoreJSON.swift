import AppStoreServerAPI
import Foundation
import StoreCore

/// The pieces of `storerules appstore --json`: each signed item under `signed_…` with its
/// verified payload beside it, dates as milliseconds since 1970 (``SignedPayloadJSON``'s
/// encoder writes them).
enum AppStoreJSON {
    /// A signed transaction and its payload.
    struct Transaction: Encodable {
        var signedTransactionInfo: String
        var transaction: JWSTransactionDecodedPayload

        init(_ transaction: VerifiedTransaction) {
            signedTransactionInfo = transaction.jwsRepresentation
            self.transaction = transaction.payload
        }

        private enum CodingKeys: String, CodingKey {
            case signedTransactionInfo = "signed_transaction_info", transaction
        }
    }

    /// `{"transactions": [...]}`.
    struct Transactions: Encodable {
        var transactions: [Transaction]
    }

    /// A customer's transaction history: its transactions, the pages read and the last revision.
    struct History: Encodable {
        var transactions: [Transaction]
        var pages: Int
        @NullWhenAbsent var revision: String?
    }

    /// Every subscription status, by group.
    struct Statuses: Encodable {
        /// One subscription group.
        struct Group: Encodable {
            @NullWhenAbsent var subscriptionGroupIdentifier: String?
            var subscriptions: [Subscription]

            private enum CodingKeys: String, CodingKey {
                case subscriptionGroupIdentifier = "subscription_group_identifier", subscriptions
            }
        }

        /// One subscription's status, latest transaction and renewal info.
        struct Subscription: Encodable {
            @NullWhenAbsent var status: Int?
            @NullWhenAbsent var originalTransactionID: String?
            var signedTransactionInfo: String
            var transaction: JWSTransactionDecodedPayload
            var signedRenewalInfo: String
            var renewalInfo: JWSRenewalInfoDecodedPayload

            init(_ subscription: SubscriptionStatuses.Subscription) {
                status = subscription.status
                originalTransactionID = subscription.originalTransactionID
                signedTransactionInfo = subscription.transaction.jwsRepresentation
                transaction = subscription.transaction.payload
                signedRenewalInfo = subscription.renewalInfo.jwsRepresentation
                renewalInfo = subscription.renewalInfo.payload
            }

            private enum CodingKeys: String, CodingKey {
                case status, originalTransactionID = "original_transaction_id", signedTransactionInfo = "signed_transaction_info",
                     transaction, signedRenewalInfo = "signed_renewal_info", renewalInfo = "renewal_info"
            }
        }

        var groups: [Group]
    }

    /// An order looked up: whether it is valid, and its transactions.
    struct Order: Encodable {
        var valid: Bool
        var transactions: [Transaction]
    }

    /// The notification history: each notification with its payload and send attempts.
    struct Notifications: Encodable {
        /// One notification.
        struct Item: Encodable {
            var signedPayload: String
            var notification: ResponseBodyV2DecodedPayload
            var sendAttempts: [Attempt]

            private enum CodingKeys: String, CodingKey {
                case signedPayload = "signed_payload", notification, sendAttempts = "send_attempts"
            }
        }

        /// One attempt to send a notification.
        struct Attempt: Encodable {
            @NullWhenAbsent var attemptDate: Int64?
            @NullWhenAbsent var result: String?

            private enum CodingKeys: String, CodingKey {
                case attemptDate = "attempt_date", result
            }
        }

        var notifications: [Item]
    }

    /// Apple's answer to an extension, with the date the subscription renews now.
    struct Extension: Encodable {
        @NullWhenAbsent var originalTransactionID: String?
        @NullWhenAbsent var success: Bool?
        @NullWhenAbsent var effectiveDate: Int64?
        @NullWhenAbsent var webOrderLineItemID: String?
        @NullWhenAbsent var renewalDate: Date?

        private enum CodingKeys: String, CodingKey {
            case originalTransactionID = "original_transaction_id", success, effectiveDate = "effective_date",
                 webOrderLineItemID = "web_order_line_item_id", renewalDate = "renewal_date"
        }
    }

    /// The status of a mass extension.
    struct MassExtension: Encodable {
        @NullWhenAbsent var requestIdentifier: String?
        @NullWhenAbsent var complete: Bool?
        @NullWhenAbsent var succeededCount: Int64?
        @NullWhenAbsent var failedCount: Int64?
        @NullWhenAbsent var completeDate: Int64?

        private enum CodingKeys: String, CodingKey {
            case requestIdentifier = "request_identifier", complete, succeededCount = "succeeded_count",
                 failedCount = "failed_count", completeDate = "complete_date"
        }
    }

    /// A signed app transaction and its payload.
    struct AppTransaction: Encodable {
        var signedAppTransactionInfo: String
        var appTransaction: JWSAppTransactionDecodedPayload

        private enum CodingKeys: String, CodingKey {
            case signedAppTransactionInfo = "signed_app_transaction_info", appTransaction = "app_transaction"
        }
    }

    /// `{"ok": true}`: a request that answers nothing but success.
    struct Done: Encodable {
        var ok = true
    }
}
