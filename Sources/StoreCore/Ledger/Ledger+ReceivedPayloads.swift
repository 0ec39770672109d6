import SignedData

extension Ledger {
    // MARK: - Validating payloads

    /// A verified transaction as the ledger stores it; refuses one that lacks what the
    /// ledger needs.
    static func receivedTransaction(
        _ payload: JWSTransactionDecodedPayload, jwsRepresentation: String, customerID: String
    ) throws -> StoredTransaction {
        let name = "transaction"
        let quantity = try required(payload.quantity, name, "quantity")
        guard quantity >= 1 else {
            throw LedgerError.invalidField(payload: name, field: "quantity", value: "\(quantity)")
        }
        return StoredTransaction(
            id: try requiredText(payload.transactionId, name, "transactionId"),
            originalID: try requiredText(payload.originalTransactionId, name, "originalTransactionId"),
            customerID: customerID,
            productID: try requiredText(payload.productId, name, "productId"),
            productType: try required(payload.type, name, "type"),
            subscriptionGroupID: payload.subscriptionGroupIdentifier,
            purchaseDate: try required(payload.purchaseDate, name, "purchaseDate"),
            originalPurchaseDate: payload.originalPurchaseDate,
            expirationDate: payload.expiresDate,
            purchasedQuantity: Int(quantity),
            revocationDate: payload.revocationDate,
            revocationReason: payload.revocationReason,
            isUpgraded: payload.isUpgraded ?? false,
            ownershipType: payload.inAppOwnershipType,
            offerType: payload.offerType,
            offerID: payload.offerIdentifier,
            price: payload.price,
            currency: payload.currency,
            offerDiscountType: payload.offerDiscountType,
            storefront: payload.storefront,
            appAccountToken: AppAccountToken.canonical(payload.appAccountToken),
            environment: try required(payload.environment, name, "environment"),
            signedDate: try required(payload.signedDate, name, "signedDate"),
            jwsRepresentation: try requiredText(jwsRepresentation, name, "JWS"),
            grantState: .unfinished(.awaitingGrant))
    }

    static func receivedRenewalInfo(
        _ payload: JWSRenewalInfoDecodedPayload, jwsRepresentation: String
    ) throws -> StoredRenewalInfo {
        let name = "renewal info"
        return StoredRenewalInfo(
            originalTransactionID: try requiredText(payload.originalTransactionId, name, "originalTransactionId"),
            currentProductID: payload.productId,
            autoRenewPreference: payload.autoRenewProductId,
            autoRenewStatus: payload.autoRenewStatus,
            expirationReason: payload.expirationIntent,
            isInBillingRetry: payload.isInBillingRetryPeriod,
            priceIncreaseStatus: payload.priceIncreaseStatus,
            gracePeriodExpirationDate: payload.gracePeriodExpiresDate,
            offerType: payload.offerType,
            offerID: payload.offerIdentifier,
            environment: payload.environment,
            recentSubscriptionStartDate: payload.recentSubscriptionStartDate,
            renewalDate: payload.renewalDate,
            appAccountToken: AppAccountToken.canonical(payload.appAccountToken),
            eligibleWinBackOfferIDs: payload.eligibleWinBackOfferIds ?? [],
            signedDate: try required(payload.signedDate, name, "signedDate"),
            jwsRepresentation: try requiredText(jwsRepresentation, name, "JWS"))
    }

    static func required<Value>(_ value: Value?, _ payload: String, _ field: String) throws -> Value {
        guard let value else { throw LedgerError.missingField(payload: payload, field: field) }
        return value
    }

    static func requiredText(_ value: String?, _ payload: String, _ field: String) throws -> String {
        let text = try required(value, payload, field)
        guard !text.isEmpty else {
            throw LedgerError.invalidField(payload: payload, field: field, value: "an empty string")
        }
        return text
    }

    /// A decoded payload together with the signed JWS it came from.
    struct Signed<Payload> {
        let payload: Payload
        let jws: String
    }

    /// Pairs a decoded payload with the JWS the notification carries for it; both or neither.
    static func pair<Payload>(_ payload: Payload?, _ jws: String?, field: String) throws -> Signed<Payload>? {
        switch (payload, jws) {
        case (nil, nil):
            return nil
        case (let payload?, let jws?):
            return Signed(payload: payload, jws: jws)
        case (nil, _?):
            throw LedgerError.notificationPayloadMismatch("the notification carries \(field), and no decoded payload was given for it")
        case (_?, nil):
            throw LedgerError.notificationPayloadMismatch("a decoded payload was given, and the notification carries no \(field)")
        }
    }
}
