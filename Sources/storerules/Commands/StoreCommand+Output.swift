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
            var object = transactionObject(transaction).merging(
                ["result": "success", "notifications": notifications.map(notificationObject)]) { $1 }
            if let grant { object["grant"] = grant.object }
            emit(object) {
                let order = transaction.payload.transactionId.map { " (order \(orderID($0)))" } ?? ""
                let headline = transaction.payload.productId == productID
                    ? "Purchased \(productID) for \(customer): \(describe(transaction.payload))\(order)"
                    : "\(productID) for \(customer) starts at the next renewal; now: \(describe(transaction.payload))"
                return [headline] + (grant.map { [$0.sentence] } ?? []) + notificationLines(notifications)
            }
        case .pending(let request):
            emit(["result": "pending", "request": requestObject(request)]) {
                ["\(productID) for \(customer) waits for a parent's approval: request \(request.id)"]
            }
        case .userCancelled:
            emit(["result": "userCancelled"]) { ["The customer cancelled; nothing changed."] }
        }
    }

    func approved(_ transaction: VerifiedTransaction, notifications: [StoreNotification]) {
        emit(transactionObject(transaction).merging(
            ["result": "success", "notifications": notifications.map(notificationObject)]) { $1 }) {
            ["Approved: \(describe(transaction.payload))"] + notificationLines(notifications)
        }
    }

    func requests(_ requests: [AskToBuyRequest]) {
        emit(["requests": requests.map(requestObject)]) {
            requests.isEmpty ? ["No Ask to Buy requests."] : requests.map {
                "\($0.id)  \($0.customerID)  \($0.productID)  \($0.state.rawValue)  asked \(Self.text($0.requestDate))"
            }
        }
    }

    /// A refund: the grants it reversed, then the store's time and the notifications sent.
    func refunded(_ transactionID: String, reversed: [Grant], now: Date, notifications: [StoreNotification]) {
        emit(["transaction_id": transactionID, "reversed_grants": reversed.map { ["item": $0.item, "amount": $0.amount] },
              "now": now.millisecondsSince1970, "notifications": notifications.map(notificationObject)]) {
            [reversed.isEmpty ? "Refunded \(transactionID); it had no grants to reverse."
                : "Refunded \(transactionID); reversed " + reversed.map { "\($0.amount) \($0.item)" }.joined(separator: ", ") + "."]
                + ["Store time: \(Self.text(now))"]
                + (notifications.isEmpty ? ["No notifications."] : notificationLines(notifications))
        }
    }

    /// A new App Store Server API key: the ids a client needs and where its `.p8` is.
    func apiKey(issuerID: String, keyID: String, path: String, bundleID: String) {
        emit(["issuer_id": issuerID, "key_id": keyID, "private_key_path": path, "bundle_id": bundleID]) {
            ["Issuer ID: \(issuerID)", "Key ID:    \(keyID)", "Key file:  \(path)", "Bundle ID: \(bundleID)"]
        }
    }

    /// Consumption information the API received, oldest first.
    func consumption(_ records: [ConsumptionRecord]) {
        emit(["consumption": records.map { record in
            ["transaction_id": record.transactionID, "version": record.version,
             "body": (try? JSONSerialization.jsonObject(with: Data(record.body.utf8))) ?? record.body,
             "received_date": record.receivedDate.millisecondsSince1970] as [String: Any]
        }]) {
            records.isEmpty ? ["No consumption information received."] : records.map {
                "\($0.transactionID)  v\($0.version)  \(Self.text($0.receivedDate))  \($0.body)"
            }
        }
    }

    func changes(now: Date, notifications: [StoreNotification]) {
        emit(["now": now.millisecondsSince1970, "notifications": notifications.map(notificationObject)]) {
            ["Store time: \(Self.text(now))"] + (notifications.isEmpty ? ["No notifications."] : notificationLines(notifications))
        }
    }

    func transactions(_ transactions: [VerifiedTransaction], customer: String) {
        emit(["customer_id": customer, "transactions": transactions.map { transactionObject($0) }]) {
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
        let objects: [[String: Any]] = statuses.map { entry in
            let status = entry.status, transaction = status.transaction
            var object: [String: Any] = [
                "customer_id": entry.state.customerID, "group_id": status.subscriptionGroupID,
                "original_transaction_id": transaction.originalID, "transaction_id": transaction.id,
                "product_id": transaction.productID, "group_level": status.groupLevel ?? NSNull(),
                "state": status.state.rawValue, "gives_service": status.givesService,
                "speaks_for_group": entry.speaksForGroup,
                "intro_offer_eligible": entry.state.isEligibleForIntroOffer(groupID: status.subscriptionGroupID),
                "ownership_type": transaction.ownershipType?.rawValue ?? NSNull(),
                "expiration_date": Self.milliseconds(status.expirationDate),
                "signed_transaction_info": transaction.jwsRepresentation,
                "will_auto_renew": status.willAutoRenew,
                "auto_renew_product_id": status.autoRenewProductID ?? NSNull(),
                "grace_period_expiration_date": Self.milliseconds(status.gracePeriodExpirationDate),
                "is_in_billing_retry": status.renewalInfo?.isInBillingRetry ?? NSNull(),
                "expiration_reason": status.expirationReason?.rawValue ?? NSNull(),
                "eligible_win_back_offer_ids": status.renewalInfo?.eligibleWinBackOfferIDs ?? [],
            ]
            if let renewal = status.renewalInfo { object["signed_renewal_info"] = renewal.jwsRepresentation }
            return object
        }
        emit(["now": now.millisecondsSince1970, "subscriptions": objects]) {
            ["Store time: \(Self.text(now))"] + (statuses.isEmpty ? ["No subscriptions."] : statuses.map {
                Self.line(for: $0.status, customerID: $0.state.customerID)
            })
        }
    }

    /// Each customer's entitled products, balances and the features the policy unlocks.
    func entitlements(_ all: [(state: CustomerState, features: Decision<[String]>)], single: Bool) {
        let objects: [[String: Any]] = all.map { entry in
            ["customer_id": entry.state.customerID, "entitlements": entry.state.entitledProductIDs,
             "balances": entry.state.balances, "features": entry.features.value,
             "intro_offer_eligibility": entry.state.introOfferEligibility]
        }
        for entry in all {
            if let failure = entry.features.failure {
                Output.error("[policy] features of \(entry.state.customerID) fell back to the entitled products: \(failure)")
            }
        }
        let value: [String: Any] = single && objects.count == 1 ? objects[0] : ["customers": objects]
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
        let objects: [[String: Any]] = entries.map { entry in
            let transaction = entry.transaction
            return [
                "customer_id": transaction.customerID, "transaction_id": transaction.id, "order_id": orderID(transaction.id),
                "product_id": transaction.productID, "finished": transaction.isFinished,
                "grant_state": Self.text(transaction.grantState),
                "grants": entry.grants.map { ["item": $0.item, "amount": $0.amount] },
                "signed_transaction_info": transaction.jwsRepresentation,
                "transaction": Self.payloadObject(transaction.jwsRepresentation, as: JWSTransactionDecodedPayload.self),
                "versions": entry.versions.map { version in
                    ["signed_transaction_info": version.jwsRepresentation,
                     "signed_date": version.signedDate.millisecondsSince1970,
                     "revocation_date": Self.milliseconds(version.revocationDate)]
                },
            ]
        }
        emit(["transactions": objects]) {
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
        emit(["notifications": notifications.map(notificationObject)]) {
            notifications.isEmpty ? ["No notifications."] : notificationLines(notifications)
        }
    }

    func settings(_ settings: LocalStoreSettings, notificationURL: URL?, retentionURL: URL?) {
        let failures = StoreKitErrorSetting.API.allCases.filter(settings.simulatedFailures.contains).map(\.rawValue)
        emit(["ask_to_buy": settings.askToBuyEnabled, "billing_retry": settings.shouldEnterBillingRetryOnRenewal,
              "grace_period": settings.billingGracePeriodIsEnabled, "time_rate": settings.timeRate.rawValue,
              "simulated_failures": failures, "notification_url": notificationURL?.absoluteString ?? NSNull(),
              "retention_url": retentionURL?.absoluteString ?? NSNull(),
              "win_back_criteria": Self.winBackCriteriaObject(settings.winBackCriteria)]) {
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
        var object: [String: Any] = ["original_transaction_id": screen.request.originalTransactionId ?? "",
                                     "product_id": screen.request.productId ?? "",
                                     "request_identifier": screen.request.requestIdentifier ?? "",
                                     "status": screen.status ?? NSNull(), "signed_payload": screen.signedPayload]
        if let answer = screen.answer, let data = try? JSONEncoder().encode(answer) {
            object["answer"] = (try? JSONSerialization.jsonObject(with: data)) ?? NSNull()
        }
        let line: String
        switch screen.shown {
        case .defaultMessage(let reason):
            object["shown"] = ["kind": "default", "reason": reason ?? NSNull()] as [String: Any]
            line = "Apple's default message" + (reason.map { " (\($0))" } ?? "")
        case .message(let id):
            object["shown"] = ["kind": "message", "message": id]
            line = "Message \(id)"
        case .alternateProduct(let messageID, let productID):
            object["shown"] = ["kind": "alternate_product", "message": messageID, "product_id": productID]
            line = "Message \(messageID), offering to switch to \(productID)"
        case .promotionalOffer(let messageID, let offerID, let keyID):
            object["shown"] = ["kind": "promotional_offer", "message": messageID, "offer_id": offerID, "key_id": keyID]
            line = "Message \(messageID), with the promotional offer \(offerID) (signed by key \(keyID))"
        }
        emit(object) {
            ["Cancel screen of \(screen.request.productId ?? "") (subscription \(screen.request.originalTransactionId ?? "")): "
             + (screen.status.map { "the server answered \($0)" } ?? "no answer"), "Shown: " + line]
        }
    }

    // MARK: - Pieces

    private func emit(_ value: [String: Any], text: () -> [String]) {
        if json {
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]))
                ?? Data("{}".utf8)
            Output.line(String(decoding: data, as: UTF8.self))
        } else {
            Output.line(text().joined(separator: "\n"))
        }
    }

    private func transactionObject(_ transaction: VerifiedTransaction) -> [String: Any] {
        ["signed_transaction_info": transaction.jwsRepresentation,
         "transaction": Self.payloadObject(transaction.jwsRepresentation, as: JWSTransactionDecodedPayload.self),
         "order_id": transaction.payload.transactionId.map(orderID) ?? NSNull()]
    }

    private func requestObject(_ request: AskToBuyRequest) -> [String: Any] {
        ["id": request.id, "customer_id": request.customerID, "product_id": request.productID,
         "state": request.state.rawValue, "request_date": request.requestDate.millisecondsSince1970,
         "transaction_id": request.transactionID ?? NSNull()]
    }

    private func notificationObject(_ notification: StoreNotification) -> [String: Any] {
        let payload = notification.payload
        return [
            "sequence": notification.sequence, "customer_id": notification.customerID,
            "notification_type": payload.notificationType?.rawValue ?? NSNull(),
            "subtype": payload.subtype?.rawValue ?? NSNull(),
            "notification_uuid": payload.notificationUUID ?? NSNull(),
            "signed_date": payload.signedDate?.millisecondsSince1970 ?? NSNull(),
            "status": payload.data?.status?.rawValue ?? NSNull(),
            "signed_payload": notification.signedPayload,
            "signed_transaction_info": payload.data?.signedTransactionInfo ?? NSNull(),
            "signed_renewal_info": payload.data?.signedRenewalInfo ?? NSNull(),
        ]
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

    private static func winBackCriteriaObject(_ criteria: Product.WinBackEligibility) -> [String: Any] {
        ["paid_months": criteria.paidMonths ?? NSNull(),
         "months_since_lapse": criteria.monthsSinceLapse.map { [$0.lowerBound, $0.upperBound] } ?? NSNull(),
         "months_between_offers": criteria.monthsBetweenOffers ?? NSNull()]
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

    private static func payloadObject<Payload: Codable>(_ jws: String, as type: Payload.Type) -> Any {
        guard let payload = try? CompactJWS(parsing: jws).decodePayload(as: type),
              let data = try? SignedPayloadJSON.makeEncoder().encode(payload),
              let object = try? JSONSerialization.jsonObject(with: data)
        else { return NSNull() }
        return object
    }

    private static func text(_ date: Date) -> String { date.ISO8601Format() }

    private static func milliseconds(_ date: Date?) -> Any { date?.millisecondsSince1970 ?? NSNull() }

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
