import Foundation
import StoreCore

/// What `storerules store` prints: readable text, or JSON in which every signed payload is in
/// compact form under `signed_transaction_info`, `signed_renewal_info` or `signed_payload`
/// and dates are milliseconds since 1970, as in App Store payloads.
struct StoreOutput {
    let json: Bool

    // MARK: - Commands

    func purchase(_ result: PurchaseResult, customer: String, productID: String, notifications: [StoreNotification]) {
        switch result {
        case .success(let transaction):
            emit(transactionObject(transaction).merging(
                ["result": "success", "notifications": notifications.map(notificationObject)]) { $1 }) {
                let headline = transaction.payload.productId == productID
                    ? "Purchased \(productID) for \(customer): \(describe(transaction.payload))"
                    : "\(productID) for \(customer) starts at the next renewal; now: \(describe(transaction.payload))"
                return [headline] + notificationLines(notifications)
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

    func status(_ subscriptions: [LedgerEntitlements.Subscription], now: Date) {
        let objects: [[String: Any]] = subscriptions.map { subscription in
            var object: [String: Any] = [
                "customer_id": subscription.customerID, "original_transaction_id": subscription.latest.originalID,
                "group_id": subscription.latest.subscriptionGroupID ?? NSNull(),
                "product_id": subscription.latest.productID, "state": subscription.state,
                "transaction_id": subscription.latest.id, "signed_transaction_info": subscription.latest.jwsRepresentation,
                "ownership_type": subscription.latest.ownershipType?.rawValue ?? NSNull(),
                "expiration_date": subscription.latest.expirationDate?.millisecondsSince1970 ?? NSNull(),
            ]
            if let renewal = subscription.renewalInfo {
                object["will_auto_renew"] = renewal.willAutoRenew
                object["auto_renew_product_id"] = renewal.autoRenewPreference ?? NSNull()
                object["grace_period_expiration_date"] = renewal.gracePeriodExpirationDate?.millisecondsSince1970 ?? NSNull()
                object["signed_renewal_info"] = renewal.jwsRepresentation
            }
            return object
        }
        emit(["now": now.millisecondsSince1970, "subscriptions": objects]) {
            ["Store time: \(Self.text(now))"] + (subscriptions.isEmpty ? ["No subscriptions."] : subscriptions.map { subscription in
                var line = "\(subscription.customerID)  \(subscription.latest.subscriptionGroupID ?? "")  "
                    + "\(subscription.latest.productID)  \(subscription.state)"
                if let expiration = subscription.latest.expirationDate { line += "  until \(Self.text(expiration))" }
                if let renewal = subscription.renewalInfo {
                    line += renewal.willAutoRenew ? "  renews" : "  does not renew"
                    if let next = renewal.autoRenewPreference, next != subscription.latest.productID { line += " to \(next)" }
                }
                if subscription.latest.ownershipType == .familyShared { line += "  (family shared)" }
                return line
            })
        }
    }

    func entitlements(_ all: [LedgerEntitlements.Entitlements], single: Bool) {
        let objects: [[String: Any]] = all.map {
            ["customer_id": $0.customerID, "entitlements": $0.productIDs, "balances": $0.balances]
        }
        let value: [String: Any] = single && objects.count == 1 ? objects[0] : ["customers": objects]
        emit(value) {
            all.isEmpty ? ["No customers."] : all.map { entry in
                let products = entry.productIDs.isEmpty ? "no products" : entry.productIDs.joined(separator: ", ")
                let balances = entry.balances.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                return "\(entry.customerID): \(products)" + (balances.isEmpty ? "" : "; balances: " + balances.joined(separator: ", "))
            }
        }
    }

    func ledgerTransactions(_ transactions: [StoredTransaction], ledger: Ledger) {
        let objects: [[String: Any]] = transactions.map { transaction in
            [
                "customer_id": transaction.customerID, "transaction_id": transaction.id,
                "product_id": transaction.productID, "finished": transaction.isFinished,
                "grant_state": Self.text(transaction.grantState),
                "grants": ((try? ledger.grants(ofTransaction: transaction.id)) ?? []).map { ["item": $0.item, "amount": $0.amount] },
                "signed_transaction_info": transaction.jwsRepresentation,
                "transaction": Self.payloadObject(transaction.jwsRepresentation, as: JWSTransactionDecodedPayload.self),
            ]
        }
        emit(["transactions": objects]) {
            transactions.isEmpty ? ["No transactions."] : transactions.map { transaction in
                var line = "\(transaction.id)  \(transaction.customerID)  \(transaction.productID)"
                    + "  bought \(Self.text(transaction.purchaseDate))"
                if let expiration = transaction.expirationDate { line += "  expires \(Self.text(expiration))" }
                if transaction.isRevoked { line += "  revoked" }
                if transaction.isUpgraded { line += "  upgraded" }
                if transaction.ownershipType == .familyShared { line += "  family shared" }
                let grants = (try? ledger.grants(ofTransaction: transaction.id)) ?? []
                line += "  \(Self.text(transaction.grantState))"
                if !grants.isEmpty { line += ": " + grants.map { "\($0.amount) \($0.item)" }.joined(separator: ", ") }
                return line
            }
        }
    }

    func notifications(_ notifications: [StoreNotification]) {
        emit(["notifications": notifications.map(notificationObject)]) {
            notifications.isEmpty ? ["No notifications."] : notificationLines(notifications)
        }
    }

    func settings(_ settings: LocalStoreSettings) {
        emit(["ask_to_buy": settings.askToBuyEnabled, "billing_retry": settings.shouldEnterBillingRetryOnRenewal,
              "grace_period": settings.billingGracePeriodIsEnabled, "time_rate": settings.timeRate.rawValue]) {
            ["Ask to Buy \(Self.onOff(settings.askToBuyEnabled)), billing retry \(Self.onOff(settings.shouldEnterBillingRetryOnRenewal)), "
             + "grace period \(Self.onOff(settings.billingGracePeriodIsEnabled)), time rate \(settings.timeRate) (\(settings.timeRate.rawValue))"]
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
         "transaction": Self.payloadObject(transaction.jwsRepresentation, as: JWSTransactionDecodedPayload.self)]
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

    private static func payloadObject<Payload: Codable>(_ jws: String, as type: Payload.Type) -> Any {
        guard let payload = try? CompactJWS(parsing: jws).decodePayload(as: type),
              let data = try? SignedPayloadJSON.makeEncoder().encode(payload),
              let object = try? JSONSerialization.jsonObject(with: data)
        else { return NSNull() }
        return object
    }

    private static func text(_ date: Date) -> String { date.ISO8601Format() }

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
