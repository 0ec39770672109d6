import AppStoreServerAPI
import Foundation
import StoreCore

/// What `storerules appstore` prints: one line per item, or JSON in which each signed item is
/// under `signed_…` with its verified payload beside it, dates in milliseconds since 1970.
struct AppStoreOutput {
    let json: Bool

    func transactions(_ transactions: [VerifiedTransaction]) {
        emit(AppStoreJSON.Transactions(transactions: transactions.map(AppStoreJSON.Transaction.init))) {
            transactions.isEmpty ? ["No transactions."] : transactions.map { Self.line($0.payload) }
        }
    }

    func history(_ pages: [TransactionHistoryPage]) {
        let transactions = pages.flatMap(\.transactions)
        emit(AppStoreJSON.History(transactions: transactions.map(AppStoreJSON.Transaction.init), pages: pages.count,
                                  revision: pages.last?.revision)) {
            (transactions.isEmpty ? ["No transactions."] : transactions.map { Self.line($0.payload) })
                + ["\(transactions.count) transactions in \(pages.count) pages; revision \(pages.last?.revision ?? "none")"]
        }
    }

    func statuses(_ statuses: SubscriptionStatuses) {
        let groups = statuses.groups.map { group in
            AppStoreJSON.Statuses.Group(subscriptionGroupIdentifier: group.groupID,
                                        subscriptions: group.subscriptions.map(AppStoreJSON.Statuses.Subscription.init))
        }
        emit(AppStoreJSON.Statuses(groups: groups)) {
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
        emit(AppStoreJSON.Order(valid: order.isValid, transactions: order.transactions.map(AppStoreJSON.Transaction.init))) {
            order.isValid ? order.transactions.map { Self.line($0.payload) } : ["No such order."]
        }
    }

    func notifications(_ items: [NotificationHistoryPage.Item]) {
        emit(AppStoreJSON.Notifications(notifications: items.map { item in
            AppStoreJSON.Notifications.Item(
                signedPayload: item.notification.jwsRepresentation, notification: item.notification.payload,
                sendAttempts: item.sendAttempts.map { AppStoreJSON.Notifications.Attempt(attemptDate: $0.attemptDate, result: $0.sendAttemptResult) })
        })) {
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
        emit(AppStoreJSON.Extension(originalTransactionID: answer.originalTransactionId, success: answer.success,
                                    effectiveDate: answer.effectiveDate, webOrderLineItemID: answer.webOrderLineItemId,
                                    renewalDate: renews)) {
            guard answer.success == true else { return ["Not extended: \(answer.originalTransactionId ?? "?")."] }
            let subject = "Extended \(answer.originalTransactionId ?? "?")"
            guard let renews, let effective, renews.millisecondsSince1970 != effective.millisecondsSince1970 else {
                return ["\(subject): renews \((renews ?? effective)?.ISO8601Format() ?? "?")."]
            }
            return ["\(subject) (request \(requestID) moved it to \(effective.ISO8601Format()) when first sent): renews \(renews.ISO8601Format())."]
        }
    }

    func massExtension(_ status: MassExtendRenewalDateStatusResponse) {
        emit(AppStoreJSON.MassExtension(requestIdentifier: status.requestIdentifier, complete: status.complete,
                                        succeededCount: status.succeededCount, failedCount: status.failedCount,
                                        completeDate: status.completeDate)) {
            ["Mass extension \(status.requestIdentifier ?? "?"): " + (status.complete == true ? "complete" : "in progress")
             + ", \(status.succeededCount ?? 0) extended, \(status.failedCount ?? 0) failed."]
        }
    }

    func appTransaction(_ appTransaction: VerifiedSignedData<JWSAppTransactionDecodedPayload>) {
        emit(AppStoreJSON.AppTransaction(signedAppTransactionInfo: appTransaction.jwsRepresentation, appTransaction: appTransaction.payload)) {
            let payload = appTransaction.payload
            return ["App transaction \(payload.appTransactionId ?? "?"): \(payload.bundleId ?? "?") \(payload.applicationVersion ?? "?"), "
                    + "first bought \(payload.originalPurchaseDate?.ISO8601Format() ?? "?")"]
        }
    }

    func done(_ sentence: String) {
        emit(AppStoreJSON.Done()) { [sentence] }
    }

    // MARK: - Pieces

    private func emit(_ value: some Encodable, text: () -> [String]) {
        Output.answer(value, json: json, text: text)
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
