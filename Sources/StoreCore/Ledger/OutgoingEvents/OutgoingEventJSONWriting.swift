import Foundation

// The outbox's JSON written through `JSONTextWriter`: the same text `OutgoingEventJSON.encoder`
// writes for these values (keys sorted, nil members left out, times by `ISO8601Milliseconds`),
// at a fraction of its cost, since every change a customer makes writes it.

extension JSONObjectWriter {
    /// Writes the member `key` with a time as the outbox writes it, or leaves it out when nil.
    mutating func member(_ key: StaticString, time: Date?) {
        if let time { member(key, ISO8601Milliseconds.text(of: time)) }
    }
}

extension ReportedCustomerState: JSONWritable {
    /// Writes the state; balances by item, in the order of the items' UTF-8 bytes.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("balances") { writer in
                writer.writeObject { members in
                    for item in balances.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                        members.member(named: item) { $0.write(balances[item] ?? 0) }
                    }
                }
            }
            object.member("entitlements", entitlements)
            object.member("subscriptions", subscriptions)
        }
    }
}

extension ReportedSubscription: JSONWritable {
    /// Writes the subscription.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("expiration_reason", expirationReason)
            object.member("expires_date", time: expiresDate)
            object.member("grace_period_expires_date", time: gracePeriodExpiresDate)
            object.member("group_id", groupID)
            object.member("group_level", groupLevel)
            object.member("is_family_shared", isFamilyShared)
            object.member("is_trial", isTrial)
            object.member("original_transaction_id", originalTransactionID)
            object.member("product_id", productID)
            object.member("renews_to_product_id", renewsToProductID)
            object.member("status", status.rawValue)
            object.member("transaction_id", transactionID)
            object.member("will_auto_renew", willAutoRenew)
        }
    }
}

extension ReportedTransaction: JSONWritable {
    /// Writes the transaction.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("currency", currency)
            object.member("environment", environment)
            object.member("expires_date", time: expiresDate)
            object.member("is_family_shared", isFamilyShared)
            object.member("original_transaction_id", originalTransactionID)
            object.member("price", price.map { Int($0) })
            object.member("product_id", productID)
            object.member("product_type", productType)
            object.member("purchase_date", time: purchaseDate)
            object.member("quantity", quantity)
            object.member("revocation_date", time: revocationDate)
            object.member("revocation_reason", revocationReason)
            object.member("storefront", storefront)
            object.member("transaction_id", transactionID)
        }
    }
}

extension ReportedRefundRequest: JSONWritable {
    /// Writes the refund request.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("notification_uuid", notificationUUID)
            object.member("policy_version", policyVersion)
            object.member("reason", reason)
            object.member("state", state)
            object.member("transaction_id", transactionID)
        }
    }
}

extension OutgoingEventCause: JSONWritable {
    /// Writes the cause.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("notification_type", notificationType)
            object.member("notification_uuid", notificationUUID)
            object.member("source", source.rawValue)
            object.member("subtype", subtype)
        }
    }
}

extension Grant: JSONWritable {
    /// Writes the grant.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("amount", amount)
            object.member("item", item)
        }
    }
}
