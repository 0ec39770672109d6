import AppStoreServerAPI
import Foundation
import StoreCore
import StoreTesting

extension StoreJSON {
    /// One subscription status of a customer, with the signed data behind it.
    struct Status: Encodable {
        var customerID: String
        var groupID: String
        var originalTransactionID: String
        var transactionID: String
        var productID: String
        @NullWhenAbsent var groupLevel: Int?
        var state: String
        var givesService: Bool
        var speaksForGroup: Bool
        var introOfferEligible: Bool
        @NullWhenAbsent var ownershipType: String?
        @NullWhenAbsent var expirationDate: Date?
        var signedTransactionInfo: String
        var willAutoRenew: Bool
        @NullWhenAbsent var autoRenewProductID: String?
        @NullWhenAbsent var gracePeriodExpirationDate: Date?
        @NullWhenAbsent var isInBillingRetry: Bool?
        @NullWhenAbsent var expirationReason: Int?
        var eligibleWinBackOfferIDs: [String]
        var signedRenewalInfo: String?

        init(_ status: Product.SubscriptionInfo.Status, of state: CustomerState, speaksForGroup: Bool) {
            let transaction = status.transaction
            customerID = state.customerID
            groupID = status.subscriptionGroupID
            originalTransactionID = transaction.originalID
            transactionID = transaction.id
            productID = transaction.productID
            groupLevel = status.groupLevel
            self.state = status.state.rawValue
            givesService = status.givesService
            self.speaksForGroup = speaksForGroup
            introOfferEligible = state.isEligibleForIntroOffer(groupID: status.subscriptionGroupID)
            ownershipType = transaction.ownershipType?.rawValue
            expirationDate = status.expirationDate
            signedTransactionInfo = transaction.jwsRepresentation
            willAutoRenew = status.willAutoRenew
            autoRenewProductID = status.autoRenewProductID
            gracePeriodExpirationDate = status.gracePeriodExpirationDate
            isInBillingRetry = status.renewalInfo?.isInBillingRetry
            expirationReason = status.expirationReason?.rawValue
            eligibleWinBackOfferIDs = status.renewalInfo?.eligibleWinBackOfferIDs ?? []
            signedRenewalInfo = status.renewalInfo?.jwsRepresentation
        }

        private enum CodingKeys: String, CodingKey {
            case customerID = "customer_id", groupID = "group_id", originalTransactionID = "original_transaction_id",
                 transactionID = "transaction_id", productID = "product_id", groupLevel = "group_level", state,
                 givesService = "gives_service", speaksForGroup = "speaks_for_group", introOfferEligible = "intro_offer_eligible",
                 ownershipType = "ownership_type", expirationDate = "expiration_date",
                 signedTransactionInfo = "signed_transaction_info", willAutoRenew = "will_auto_renew",
                 autoRenewProductID = "auto_renew_product_id", gracePeriodExpirationDate = "grace_period_expiration_date",
                 isInBillingRetry = "is_in_billing_retry", expirationReason = "expiration_reason",
                 eligibleWinBackOfferIDs = "eligible_win_back_offer_ids", signedRenewalInfo = "signed_renewal_info"
        }
    }

    /// The store's time and every subscription status.
    struct Statuses: Encodable {
        var now: Date
        var subscriptions: [Status]
    }

    /// A transaction as the ledger holds it, with its grants and every signed version received.
    struct LedgerTransaction: Encodable {
        /// One signed version of the transaction.
        struct Version: Encodable {
            var signedTransactionInfo: String
            var signedDate: Date
            @NullWhenAbsent var revocationDate: Date?

            private enum CodingKeys: String, CodingKey {
                case signedTransactionInfo = "signed_transaction_info", signedDate = "signed_date", revocationDate = "revocation_date"
            }
        }

        var customerID: String
        var transactionID: String
        var orderID: String
        var productID: String
        var finished: Bool
        var grantState: String
        var grants: [Grant]
        var signedTransactionInfo: String
        @NullWhenAbsent var transaction: JWSTransactionDecodedPayload?
        var versions: [Version]

        private enum CodingKeys: String, CodingKey {
            case customerID = "customer_id", transactionID = "transaction_id", orderID = "order_id", productID = "product_id",
                 finished, grantState = "grant_state", grants, signedTransactionInfo = "signed_transaction_info", transaction,
                 versions
        }
    }

    /// `{"transactions": [...]}` of the ledger.
    struct LedgerTransactions: Encodable {
        var transactions: [LedgerTransaction]
    }

    /// The store's settings.
    struct Settings: Encodable {
        /// Who may redeem a win-back offer.
        struct WinBackCriteria: Encodable {
            @NullWhenAbsent var paidMonths: Int?
            @NullWhenAbsent var monthsSinceLapse: [Int]?
            @NullWhenAbsent var monthsBetweenOffers: Int?

            init(_ criteria: Product.WinBackEligibility) {
                paidMonths = criteria.paidMonths
                monthsSinceLapse = criteria.monthsSinceLapse.map { [$0.lowerBound, $0.upperBound] }
                monthsBetweenOffers = criteria.monthsBetweenOffers
            }

            private enum CodingKeys: String, CodingKey {
                case paidMonths = "paid_months", monthsSinceLapse = "months_since_lapse", monthsBetweenOffers = "months_between_offers"
            }
        }

        var askToBuy: Bool
        var billingRetry: Bool
        var gracePeriod: Bool
        var timeRate: Int
        var simulatedFailures: [String]
        @NullWhenAbsent var notificationURL: String?
        @NullWhenAbsent var retentionURL: String?
        var winBackCriteria: WinBackCriteria

        private enum CodingKeys: String, CodingKey {
            case askToBuy = "ask_to_buy", billingRetry = "billing_retry", gracePeriod = "grace_period", timeRate = "time_rate",
                 simulatedFailures = "simulated_failures", notificationURL = "notification_url", retentionURL = "retention_url",
                 winBackCriteria = "win_back_criteria"
        }
    }

    /// What the subscriber sees on the cancel screen, and the exchange behind it.
    struct CancelScreen: Encodable {
        var originalTransactionID: String
        var productID: String
        var requestIdentifier: String
        @NullWhenAbsent var status: Int?
        var signedPayload: String
        var answer: RealtimeResponseBody?
        var shown: Shown

        init(_ screen: StoreTesting.CancelScreen) {
            originalTransactionID = screen.request.originalTransactionId ?? ""
            productID = screen.request.productId ?? ""
            requestIdentifier = screen.request.requestIdentifier ?? ""
            status = screen.status
            signedPayload = screen.signedPayload
            answer = screen.answer
            shown = Shown(shown: screen.shown)
        }

        private enum CodingKeys: String, CodingKey {
            case originalTransactionID = "original_transaction_id", productID = "product_id",
                 requestIdentifier = "request_identifier", status, signedPayload = "signed_payload", answer, shown
        }
    }

    /// What the cancel screen shows.
    struct Shown: Encodable {
        var shown: StoreTesting.CancelScreen.Shown

        private enum CodingKeys: String, CodingKey {
            case kind, reason, message, productID = "product_id", offerID = "offer_id", keyID = "key_id"
        }

        /// `{"kind": "default", "reason"}`, `{"kind": "message", "message"}`,
        /// `{"kind": "alternate_product", "message", "product_id"}` or
        /// `{"kind": "promotional_offer", "message", "offer_id", "key_id"}`.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch shown {
            case .defaultMessage(let reason):
                try container.encode("default", forKey: .kind)
                try container.encode(reason, forKey: .reason)
            case .message(let id):
                try container.encode("message", forKey: .kind)
                try container.encode(id, forKey: .message)
            case .alternateProduct(let messageID, let productID):
                try container.encode("alternate_product", forKey: .kind)
                try container.encode(messageID, forKey: .message)
                try container.encode(productID, forKey: .productID)
            case .promotionalOffer(let messageID, let offerID, let keyID):
                try container.encode("promotional_offer", forKey: .kind)
                try container.encode(messageID, forKey: .message)
                try container.encode(offerID, forKey: .offerID)
                try container.encode(keyID, forKey: .keyID)
            }
        }
    }
}
