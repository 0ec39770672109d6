import AppStoreServerAPI
import Foundation
import StoreCore

/// What `storerules appstore` prints: one line per item, or JSON in which each signed item is
/// under `signed_…` with its verified payload beside it, dates in milliseconds since 1970.
struct AppStoreOutput {
    let json: Bool

    func transactions(_ transactions: [VerifiedTransaction]) {
        emit(["transactions": transactions.map(Self.object)]) {
            transactions.isEmpty ? ["No transactions."] : transactions.map { Self.line($0.payload) }
        }
    }

    func history(_ pages: [TransactionHistoryPage]) {
        let transactions = pages.flatMap(\.transactions)
        emit(["transactions": transactions.map(Self.object), "pages": pages.count, "revision": pages.last?.revision ?? NSNull()]) {
            (transactions.isEmpty ? ["No transactions."] : transactions.map { Self.line($0.payload) })
                + ["\(transactions.count) transactions in \(pages.count) pages; revision \(pages.last?.revision ?? "none")"]
        }
    }

    func statuses(_ statuses: SubscriptionStatuses) {
        let groups: [[String: Any]] = statuses.groups.map { group in
            ["subscription_group_identifier": group.groupID ?? NSNull(), "subscriptions": group.subscriptions.map { subscription in
                ["status": subscription.status ?? NSNull(), "original_transaction_id": subscription.originalTransactionID ?? NSNull(),
                 "signed_transaction_info": subscription.transaction.jwsRepresentation,
                 "transaction": Self.encoded(subscription.transaction.payload),
                 "signed_renewal_info": subscription.renewalInfo.jwsRepresentation,
                 "renewal_info": Self.encoded(subscription.renewalInfo.payload)] as [String: Any]
            }]
        }
        emit(["groups": groups]) {
            statuses.groups.isEmpty ? ["No subscriptions."] : statuses.groups.flatMap { group in
                ["Group \(group.groupID ?? "?"):"] + group.subscriptions.map { subscription in
                    let renewal = subscription.renewalInfo.payload
                    return "  \(subscription.originalTransactionID ?? "?")  \(Self.statusWord(subscription.status))  "
                        + "\(subscription.transaction.payload.productId ?? "?")"
                        + (renewal.autoRenewStatus == .on ? "  renews to \(renewal.autoRenewProductId ?? "?")" : "  does not renew")
                        + (subscription.transaction.payload.expiresDate.map { "  until \($0.ISO8601Format())" } ?? "")
                }
            }
        }
    }

    func order(_ order: OrderLookup) {
        emit(["valid": order.isValid, "transactions": order.transactions.map(Self.object)]) {
            order.isValid ? order.transactions.map { Self.line($0.payload) } : ["No such order."]
        }
    }

    func notifications(_ items: [NotificationHistoryPage.Item]) {
        emit(["notifications": items.map { item in
            ["signed_payload": item.notification.jwsRepresentation, "notification": Self.encoded(item.notification.payload),
             "send_attempts": item.sendAttempts.map { ["attempt_date": $0.attemptDate as Any, "result": $0.sendAttemptResult as Any] }]
                as [String: Any]
        }]) {
            items.isEmpty ? ["No notifications."] : items.map { item in
                let payload = item.notification.payload
                let attempts = item.sendAttempts.map { $0.sendAttemptResult ?? "?" }
                return "\(payload.signedDate?.ISO8601Format() ?? "?")  \(payload.notificationType?.rawValue ?? "?")"
                    + (payload.subtype.map { "/\($0.rawValue)" } ?? "") + "  \(payload.notificationUUID ?? "")"
                    + "  attempts: " + (attempts.isEmpty ? "none" : attempts.joined(separator: ", "))
            }
        }
    }

    /// Apple's answer to an extension, with the date the subscription renews now (`renews`, read
    /// after the extension; nil when it could not be read): a request identifier sent before is
    /// answered as it was then, and the subscription may have moved since.
    func `extension`(_ answer: ExtendRenewalDateResponse, requestID: String, renews: Date?) {
        let effective = answer.effectiveDate.map { Date(millisecondsSince1970: $0) }
        emit(["original_transaction_id": answer.originalTransactionId ?? NSNull(), "success": answer.success ?? NSNull(),
              "effective_date": answer.effectiveDate ?? NSNull(), "web_order_line_item_id": answer.webOrderLineItemId ?? NSNull(),
              "renewal_date": renews?.millisecondsSince1970 ?? NSNull()]) {
            guard answer.success == true else { return ["Not extended: \(answer.originalTransactionId ?? "?")."] }
            let subject = "Extended \(answer.originalTransactionId ?? "?")"
            guard let renews, let effective, renews.millisecondsSince1970 != effective.millisecondsSince1970 else {
                return ["\(subject): renews \((renews ?? effective)?.ISO8601Format() ?? "?")."]
            }
            return ["\(subject) (request \(requestID) moved it to \(effective.ISO8601Format()) when first sent): renews \(renews.ISO8601Format())."]
        }
    }

    func massExtension(_ status: MassExtendRenewalDateStatusResponse) {
        emit(["request_identifier": status.requestIdentifier ?? NSNull(), "complete": status.complete ?? NSNull(),
              "succeeded_count": status.succeededCount ?? NSNull(), "failed_count": status.failedCount ?? NSNull(),
              "complete_date": status.completeDate ?? NSNull()]) {
            ["Mass extension \(status.requestIdentifier ?? "?"): " + (status.complete == true ? "complete" : "in progress")
             + ", \(status.succeededCount ?? 0) extended, \(status.failedCount ?? 0) failed."]
        }
    }

    func appTransaction(_ appTransaction: VerifiedSignedData<JWSAppTransactionDecodedPayload>) {
        emit(["signed_app_transaction_info": appTransaction.jwsRepresentation, "app_transaction": Self.encoded(appTransaction.payload)]) {
            let payload = appTransaction.payload
            return ["App transaction \(payload.appTransactionId ?? "?"): \(payload.bundleId ?? "?") \(payload.applicationVersion ?? "?"), "
                    + "first bought \(payload.originalPurchaseDate?.ISO8601Format() ?? "?")"]
        }
    }

    func done(_ sentence: String) {
        emit(["ok": true]) { [sentence] }
    }

    // MARK: - Pieces

    private func emit(_ value: [String: Any], text: () -> [String]) {
        if json {
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
            Output.line(String(decoding: data, as: UTF8.self))
        } else {
            Output.line(text().joined(separator: "\n"))
        }
    }

    private static func object(_ transaction: VerifiedTransaction) -> [String: Any] {
        ["signed_transaction_info": transaction.jwsRepresentation, "transaction": encoded(transaction.payload)]
    }

    private static func encoded(_ payload: some Encodable) -> Any {
        guard let data = try? SignedPayloadJSON.makeEncoder().encode(payload), let object = try? JSONSerialization.jsonObject(with: data) else {
            return NSNull()
        }
        return object
    }

    private static func line(_ payload: JWSTransactionDecodedPayload) -> String {
        var line = "\(payload.transactionId ?? "?")  \(payload.productId ?? "?")  bought \(payload.purchaseDate?.ISO8601Format() ?? "?")"
        if let expires = payload.expiresDate { line += "  expires \(expires.ISO8601Format())" }
        if payload.revocationDate != nil { line += "  revoked" }
        if payload.inAppOwnershipType == .familyShared { line += "  family shared" }
        return line
    }

    private static func statusWord(_ status: Int?) -> String {
        switch status {
        case 1: "active"
        case 2: "expired"
        case 3: "billing retry"
        case 4: "grace period"
        case 5: "revoked"
        default: "status \(status.map(String.init) ?? "?")"
        }
    }
}
