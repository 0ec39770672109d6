import Foundation
import StoreCore
import StorePolicy
import StoreTesting

/// What `storerules store` prints: readable text, or JSON in which every signed payload is in
/// compact form under `signed_transaction_info`, `signed_renewal_info` or `signed_payload`
/// and dates are milliseconds since 1970, as in App Store payloads.
struct StoreOutput {
    let json: Bool
    /// The order id of a purchase's transaction, as Look Up Order ID takes it.
    let orderID: (String) -> String

    // MARK: - Commands

    /// A purchase's result; for a transaction, what the policy's grant decision made of it.
    func purchase(_ result: PurchaseResult, customer: String, productID: String, grant: GrantOutcome?,
                  notifications: [StoreNotification]) {
        switch result {
        case .success(let transaction):
            emit(StoreJSON.Success(transactionJSON(transaction), notifications: notifications.map(StoreJSON.Notification.init),
                                   grant: grant)) {
                let order = transaction.payload.transactionId.map { " (order \(orderID($0)))" } ?? ""
                let headline = transaction.payload.productId == productID
                    ? "Purchased \(productID) for \(customer): \(describe(transaction.payload))\(order)"
                    : "\(productID) for \(customer) starts at the next renewal; now: \(describe(transaction.payload))"
                return [headline] + (grant.map { [$0.sentence] } ?? []) + notificationLines(notifications)
            }
        case .pending(let request):
            emit(StoreJSON.Pending(request: StoreJSON.Request(request))) {
                ["\(productID) for \(customer) waits for a parent's approval: request \(request.id)"]
            }
        case .userCancelled:
            emit(StoreJSON.Cancelled()) { ["The customer cancelled; nothing changed."] }
        }
    }

    func approved(_ transaction: VerifiedTransaction, notifications: [StoreNotification]) {
        emit(StoreJSON.Success(transactionJSON(transaction), notifications: notifications.map(StoreJSON.Notification.init))) {
            ["Approved: \(describe(transaction.payload))"] + notificationLines(notifications)
        }
    }

    func requests(_ requests: [AskToBuyRequest]) {
        emit(StoreJSON.Requests(requests: requests.map(StoreJSON.Request.init))) {
            requests.isEmpty ? ["No Ask to Buy requests."] : requests.map {
                "\($0.id)  \($0.customerID)  \($0.productID)  \($0.state.rawValue)  asked \(Self.text($0.requestDate))"
            }
        }
    }

    /// A refund: the grants it reversed, then the store's time and the notifications sent.
    func refunded(_ transactionID: String, reversed: [Grant], now: Date, notifications: [StoreNotification]) {
        emit(StoreJSON.Refund(transactionID: transactionID, reversedGrants: reversed, now: now,
                              notifications: notifications.map(StoreJSON.Notification.init))) {
            [reversed.isEmpty ? "Refunded \(transactionID); it had no grants to reverse."
                : "Refunded \(transactionID); reversed " + reversed.map { "\($0.amount) \($0.item)" }.joined(separator: ", ") + "."]
                + ["Store time: \(Self.text(now))"]
                + (notifications.isEmpty ? ["No notifications."] : notificationLines(notifications))
        }
    }

    /// A new App Store Server API key: the ids a client needs and where its `.p8` is.
    func apiKey(issuerID: String, keyID: String, path: String, bundleID: String) {
        emit(StoreJSON.APIKey(issuerID: issuerID, keyID: keyID, privateKeyPath: path, bundleID: bundleID)) {
            ["Issuer ID: \(issuerID)", "Key ID:    \(keyID)", "Key file:  \(path)", "Bundle ID: \(bundleID)"]
        }
    }

    /// Consumption information the API received, oldest first.
    func consumption(_ records: [ConsumptionRecord]) {
        emit(StoreJSON.Consumption(consumption: records.map(StoreJSON.Consumption.Received.init))) {
            records.isEmpty ? ["No consumption information received."] : records.map {
                "\($0.transactionID)  v\($0.version)  \(Self.text($0.receivedDate))  \($0.body)"
            }
        }
    }

    func changes(now: Date, notifications: [StoreNotification]) {
        emit(StoreJSON.Changes(now: now, notifications: notifications.map(StoreJSON.Notification.init))) {
            ["Store time: \(Self.text(now))"] + (notifications.isEmpty ? ["No notifications."] : notificationLines(notifications))
        }
    }

    func transactions(_ transactions: [VerifiedTransaction], customer: String) {
        emit(StoreJSON.Restored(customerID: customer, transactions: transactions.map(transactionJSON))) {
            ["Restored \(transactions.count) transaction\(transactions.count == 1 ? "" : "s") of \(customer)."]
                + transactions.map { "  " + describe($0.payload) }
        }
    }

    /// Every subscription status of each customer, by customer, then group; in a group the
    /// status that speaks for it first.
    func status(_ states: [CustomerState], now: Date) {
        let statuses = states.flatMap { state in
            state.subscriptionStatuses.keys.sorted().flatMap { group in
                state.subscriptionStatuses(inGroup: group).enumerated().map { index, status in
                    (state: state, status: status, speaksForGroup: index == 0)
                }
            }
        }
        let subscriptions = statuses.map { StoreJSON.Status($0.status, of: $0.state, speaksForGroup: $0.speaksForGroup) }
        emit(StoreJSON.Statuses(now: now, subscriptions: subscriptions)) {
            ["Store time: \(Self.text(now))"] + (statuses.isEmpty ? ["No subscriptions."] : statuses.map {
                Self.line(for: $0.status, customerID: $0.state.customerID)
            })
        }
    }

    /// Each customer's entitled products, balances and the features the policy unlocks.
    func entitlements(_ all: [(state: CustomerState, features: Decision<[String]>)], single: Bool) {
        let customers = all.map { entry in
            StoreJSON.Entitlements(customerID: entry.state.customerID, entitlements: entry.state.entitledProductIDs,
                                   balances: entry.state.balances, features: entry.features.value,
                                   introOfferEligibility: entry.state.introOfferEligibility)
        }
        for entry in all {
            if let failure = entry.features.failure {
                Output.error("[policy] features of \(entry.state.customerID) fell back to the entitled products: \(failure)")
            }
        }
        let value: any Encodable = single && customers.count == 1 ? customers[0] : StoreJSON.Customers(customers: customers)
        emit(value) {
            all.isEmpty ? ["No customers."] : all.map { entry in
                let state = entry.state
                let products = state.entitledProductIDs.isEmpty ? "no products" : state.entitledProductIDs.joined(separator: ", ")
                let balances = state.balances.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                let features = entry.features.value
                return "\(state.customerID): \(products)" + (balances.isEmpty ? "" : "; balances: " + balances.joined(separator: ", "))
                    + (features.isEmpty ? "" : "; features: " + features.joined(separator: ", "))
            }
        }
    }

    /// Transactions as the ledger holds them, each with its grants and every signed version
    /// the ledger received, oldest signature first.
    func ledgerTransactions(_ entries: [(transaction: StoredTransaction, grants: [Grant], versions: [TransactionVersion])]) {
        let transactions = entries.map { entry in
            let transaction = entry.transaction
            return StoreJSON.LedgerTransaction(
                customerID: transaction.customerID, transactionID: transaction.id, orderID: orderID(transaction.id),
                productID: transaction.productID, finished: transaction.isFinished, grantState: Self.text(transaction.grantState),
                grants: entry.grants, signedTransactionInfo: transaction.jwsRepresentation,
                transaction: StoreJSON.payload(transaction.jwsRepresentation, as: JWSTransactionDecodedPayload.self),
                versions: entry.versions.map {
                    StoreJSON.LedgerTransaction.Version(signedTransactionInfo: $0.jwsRepresentation, signedDate: $0.signedDate,
                                                        revocationDate: $0.revocationDate)
                })
        }
        emit(StoreJSON.LedgerTransactions(transactions: transactions)) {
            entries.isEmpty ? ["No transactions."] : entries.map { entry in
                let transaction = entry.transaction
                var line = "\(transaction.id)  \(transaction.customerID)  \(transaction.productID)"
                    + "  bought \(Self.text(transaction.purchaseDate))"
                if let expiration = transaction.expirationDate { line += "  expires \(Self.text(expiration))" }
                if transaction.isRevoked { line += "  revoked" }
                if transaction.isUpgraded { line += "  upgraded" }
                if transaction.ownershipType == .familyShared { line += "  family shared" }
                line += "  \(Self.text(transaction.grantState))"
                if !entry.grants.isEmpty { line += ": " + entry.grants.map { "\($0.amount) \($0.item)" }.joined(separator: ", ") }
                if entry.versions.count > 1 { line += "  (\(entry.versions.count) signed versions)" }
                return line
            }
        }
    }

    func notifications(_ notifications: [StoreNotification]) {
        emit(StoreJSON.Notifications(notifications: notifications.map(StoreJSON.Notification.init))) {
            notifications.isEmpty ? ["No notifications."] : notificationLines(notifications)
        }
    }

    func settings(_ settings: LocalStoreSettings, notificationURL: URL?, retentionURL: URL?) {
        let failures = StoreKitErrorSetting.API.allCases.filter(settings.simulatedFailures.contains).map(\.rawValue)
        emit(StoreJSON.Settings(askToBuy: settings.askToBuyEnabled, billingRetry: settings.shouldEnterBillingRetryOnRenewal,
                                gracePeriod: settings.billingGracePeriodIsEnabled, timeRate: settings.timeRate.rawValue,
                                simulatedFailures: failures, notificationURL: notificationURL?.absoluteString,
                                retentionURL: retentionURL?.absoluteString,
                                winBackCriteria: StoreJSON.Settings.WinBackCriteria(settings.winBackCriteria))) {
            ["Ask to Buy \(Self.onOff(settings.askToBuyEnabled)), billing retry \(Self.onOff(settings.shouldEnterBillingRetryOnRenewal)), "
             + "grace period \(Self.onOff(settings.billingGracePeriodIsEnabled)), time rate \(settings.timeRate) (\(settings.timeRate.rawValue))",
             "Simulated failures: " + (failures.isEmpty ? "none" : failures.joined(separator: ", ")),
             "Notifications sent to: " + (notificationURL?.absoluteString ?? "nowhere"),
             "Retention messages asked from: " + (retentionURL?.absoluteString ?? "nowhere"),
             "Win-back offers: " + Self.winBackCriteriaText(settings.winBackCriteria)]
        }
    }

    /// What the subscriber sees on the cancel screen, and the exchange behind it.
    func cancelScreen(_ screen: CancelScreen) {
        let line: String
        switch screen.shown {
        case .defaultMessage(let reason):
            line = "Apple's default message" + (reason.map { " (\($0))" } ?? "")
        case .message(let id):
            line = "Message \(id)"
        case .alternateProduct(let messageID, let productID):
            line = "Message \(messageID), offering to switch to \(productID)"
        case .promotionalOffer(let messageID, let offerID, let keyID):
            line = "Message \(messageID), with the promotional offer \(offerID) (signed by key \(keyID))"
        }
        emit(StoreJSON.CancelScreen(screen)) {
            ["Cancel screen of \(screen.request.productId ?? "") (subscription \(screen.request.originalTransactionId ?? "")): "
             + (screen.status.map { "the server answered \($0)" } ?? "no answer"), "Shown: " + line]
        }
    }

    // MARK: - Pieces

    private func emit(_ value: some Encodable, text: () -> [String]) {
        Output.answer(value, json: json, text: text)
    }

    private func transactionJSON(_ transaction: VerifiedTransaction) -> StoreJSON.Transaction {
        StoreJSON.Transaction(signedTransactionInfo: transaction.jwsRepresentation,
                              transaction: transaction.payload,
                              orderID: transaction.payload.transactionId.map(orderID))
    }

    private func notificationLines(_ notifications: [StoreNotification]) -> [String] {
        notifications.map { notification in
            var line = "#\(notification.sequence) \(notification.summary)  \(notification.customerID)"
            if let transaction = notification.payload.data?.signedTransactionInfo.flatMap({
                try? CompactJWS(parsing: $0).decodePayload(as: JWSTransactionDecodedPayload.self)
            }) {
                line += "  transaction \(transaction.transactionId ?? "?") (\(transaction.productId ?? "?"))"
            }
            return line
        }
    }

    private func describe(_ payload: JWSTransactionDecodedPayload) -> String {
        var text = "transaction \(payload.transactionId ?? "?")"
        if let original = payload.originalTransactionId, original != payload.transactionId { text += " of \(original)" }
        text += ", \(payload.productId ?? "?")"
        if let quantity = payload.quantity, quantity > 1 { text += " ×\(quantity)" }
        if let expiration = payload.expiresDate { text += ", until \(Self.text(expiration))" }
        if let offer = payload.offerType {
            let kind = switch offer {
            case .introductoryOffer: "introductory offer"
            case .promotionalOffer: "promotional offer"
            case .offerCode: "offer code"
            case .winBackOffer: "win-back offer"
            default: "offer \(offer.rawValue)"
            }
            text += ", \(kind)" + (payload.offerIdentifier.map { " \($0)" } ?? "")
        }
        if payload.revocationDate != nil { text += ", revoked" }
        return text
    }

    private static func winBackCriteriaText(_ criteria: Product.WinBackEligibility) -> String {
        var parts: [String] = []
        if let paid = criteria.paidMonths { parts.append("paid for \(paid)+ months") }
        if let range = criteria.monthsSinceLapse { parts.append("lapsed \(range.lowerBound)–\(range.upperBound) months ago") }
        if let wait = criteria.monthsBetweenOffers { parts.append("\(wait) months after a lapse before an offer is redeemed again") }
        return parts.isEmpty ? "each offer's own eligibility (StoreKit Testing: redeemable once a subscription lapses)"
            : parts.joined(separator: ", ")
    }

    /// One status in words: customer, group, product, state, and what comes next.
    private static func line(for status: Product.SubscriptionInfo.Status, customerID: String) -> String {
        let transaction = status.transaction
        var line = "\(customerID)  \(status.subscriptionGroupID)  \(transaction.productID)  \(status.state)"
        switch status.state {
        case .subscribed:
            if let expiration = status.expirationDate { line += "  until \(text(expiration))" }
            line += status.willAutoRenew ? "  renews" : "  does not renew"
            if let next = status.scheduledRenewalProductID { line += " to \(next)" }
        case .inGracePeriod:
            if let end = status.gracePeriodExpirationDate { line += "  until \(text(end))" }
            if let expiration = status.expirationDate { line += "  (renewal failed \(text(expiration)))" }
        case .inBillingRetryPeriod:
            if let expiration = status.expirationDate { line += "  since \(text(expiration))" }
        case .expired:
            if let expiration = status.expirationDate { line += "  ended \(text(expiration))" }
            if transaction.isUpgraded {
                line += "  (upgraded)"
            } else if let reason = status.expirationReason {
                line += "  (\(text(reason)))"
            }
            if let offers = status.renewalInfo?.eligibleWinBackOfferIDs, !offers.isEmpty {
                line += "  win-back offers: \(offers.joined(separator: ", "))"
            }
        case .revoked:
            if let revocation = transaction.revocationDate { line += "  \(text(revocation))" }
        }
        if status.isFamilyShared { line += "  (family shared)" }
        return line
    }

    private static func text(_ date: Date) -> String { date.ISO8601Format() }

    private static func text(_ reason: ExpirationIntent) -> String {
        switch reason {
        case .customerCancelled: "cancelled"
        case .billingError: "billing error"
        case .customerDidNotConsentToPriceIncrease: "price increase declined"
        case .productNotAvailable: "product not available"
        default: "expiration intent \(reason.rawValue)"
        }
    }

    private static func text(_ state: GrantState) -> String {
        switch state {
        case .granted: "granted"
        case .revokedBeforeGrant: "revoked before grant"
        case .unfinished(let reason): "unfinished (\(reason))"
        }
    }

    private static func onOff(_ value: Bool) -> String { value ? "on" : "off" }
}

extension StoreNotification {
    /// `TYPE` or `TYPE/SUBTYPE`.
    var summary: String {
        [notificationType?.rawValue, subtype?.rawValue].compactMap { $0 }.joined(separator: "/")
    }
}
