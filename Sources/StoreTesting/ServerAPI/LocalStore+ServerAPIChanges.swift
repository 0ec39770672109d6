import AppStoreServerAPI
import Foundation
import StoreCore
import SQLiteLedger

extension LocalStore {
    /// Records consumption information sent for a refund request, after Apple's checks.
    func recordConsumption(version: Int, transactionID: String, body: Data) throws {
        let transaction = try apiTransaction(transactionID)
        switch version {
        case 2:
            let request: ConsumptionRequest
            do {
                request = try JSONDecoder().decode(ConsumptionRequest.self, from: body)
            } catch {
                throw ServerAPIFailure.badRequest(.generalBadRequest,
                                                  "the body is not consumption information: \(DecodingFailure.summary(of: error))")
            }
            if let violation = request.violation { throw ServerAPIFailure.badRequest(violation.code, violation.message) }
            if request.consumptionPercentage != nil, transaction.payload.type == .autoRenewableSubscription {
                throw ServerAPIFailure.badRequest(.generalBadRequest, "consumptionPercentage is not accepted for an auto-renewable subscription")
            }
        default:
            let request: ConsumptionRequestV1
            do {
                request = try JSONDecoder().decode(ConsumptionRequestV1.self, from: body)
            } catch {
                throw ServerAPIFailure.badRequest(.generalBadRequest,
                                                  "the body is not consumption data: \(DecodingFailure.summary(of: error))")
            }
            guard request.customerConsented == true else {
                throw ServerAPIFailure.badRequest(.invalidCustomerConsented, "customerConsented must be true")
            }
        }
        try state.write { connection in
            try connection.execute(
                "INSERT INTO local_store_consumption (transaction_id, version, body, received_date) VALUES (?, ?, ?, ?)",
                [transactionID, version, String(decoding: body, as: UTF8.self), Date().millisecondsSince1970])
        }
    }

    /// Extends one subscriber's renewal date, once per request identifier: the latest
    /// transaction is signed again with the later expiry and `RENEWAL_EXTENDED` is sent.
    func extendRenewalDate(originalTransactionID: String, _ given: ExtendRenewalDateRequest) throws -> ExtendRenewalDateResponse {
        var request = given
        request.requestIdentifier = Self.canonical(request.requestIdentifier)
        try Self.checkExtension(days: request.extendByDays, reason: request.extendReasonCode, requestIdentifier: request.requestIdentifier)
        guard originalTransactionID.allSatisfy(\.isASCIIDigit), !originalTransactionID.isEmpty else {
            throw ServerAPIFailure.badRequest(.invalidOriginalTransactionId, "\(originalTransactionID) is not an original transaction id")
        }
        return try serially {
            _ = try catchUp()
            return try perform { writer -> ExtendRenewalDateResponse in
                if let done = try Self.recordedExtension(request.requestIdentifier, originalTransactionID, in: writer.connection) { return done }
                guard var subscription = try writer.subscription(originalID: originalTransactionID) else {
                    throw ServerAPIFailure.notFound(.originalTransactionIdNotFound, "no subscription \(originalTransactionID)")
                }
                guard subscription.sharedFrom == nil else {
                    throw ServerAPIFailure(403, .familySharedSubscriptionExtensionIneligible, "a family-shared subscription is extended through its purchaser")
                }
                let reissued = try extend(&subscription, by: request, writer: writer)
                try writer.notify(.renewalExtended, nil, about: &subscription, at: writer.now, transaction: reissued)
                return try Self.recordedExtension(request.requestIdentifier, originalTransactionID, in: writer.connection)
                    ?? ExtendRenewalDateResponse(originalTransactionId: originalTransactionID, webOrderLineItemId: nil, success: false, effectiveDate: nil)
            }.0
        }
    }

    /// Extends every active subscriber of a product in the given storefronts (all when nil),
    /// once per request identifier, records how many were extended and how many could not be,
    /// and sends `RENEWAL_EXTENSION` / `SUMMARY` saying so, as Apple does.
    func extendRenewalDateForAllActiveSubscribers(_ given: MassExtendRenewalDateRequest) throws {
        var request = given
        request.requestIdentifier = Self.canonical(request.requestIdentifier)
        try Self.checkExtension(days: request.extendByDays, reason: request.extendReasonCode, requestIdentifier: request.requestIdentifier)
        guard catalog.product(id: request.productId)?.type == .autoRenewable else {
            throw ServerAPIFailure.badRequest(.invalidProductId, "\(request.productId) is not an auto-renewable subscription")
        }
        if let codes = request.storefrontCountryCodes, codes.isEmpty {
            throw ServerAPIFailure.badRequest(.invalidEmptyStorefrontCountryCodeList, "storefrontCountryCodes is empty; leave it out for all")
        }
        try serially {
            _ = try catchUp()
            _ = try perform { writer in
                let known = try writer.connection.fetchValue(
                    Int.self, "SELECT 1 FROM local_store_mass_extension WHERE request_identifier = ?", [request.requestIdentifier])
                guard known == nil else { return }
                let inStorefront = request.storefrontCountryCodes.map { $0.contains(catalog.storefront.countryCode) } ?? true
                var succeeded = 0
                var failed = 0
                let subscribers = inStorefront ? try writer.subscriptions(
                    "WHERE product_id = ? AND shared_from IS NULL AND phase = 'subscribed' ORDER BY original_transaction_id", [request.productId]) : []
                for var subscription in subscribers {
                    let single = ExtendRenewalDateRequest(extendByDays: request.extendByDays, extendReasonCode: request.extendReasonCode,
                                                          requestIdentifier: request.requestIdentifier)
                    // Each subscriber hears of it as Apple tells them: RENEWAL_EXTENDED, or
                    // RENEWAL_EXTENSION / FAILURE for one that could not be extended.
                    do {
                        let reissued = try extend(&subscription, by: single, writer: writer)
                        try writer.notify(.renewalExtended, nil, about: &subscription, at: writer.now, transaction: reissued)
                        succeeded += 1
                    } catch is ServerAPIFailure {
                        try writer.notify(.renewalExtension, .failure, about: &subscription, at: writer.now)
                        failed += 1
                    }
                }
                try writer.connection.execute(
                    """
                    INSERT INTO local_store_mass_extension (request_identifier, product_id, extend_by_days, reason_code, storefronts,
                        succeeded_count, failed_count, complete_date)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [request.requestIdentifier, request.productId, request.extendByDays, request.extendReasonCode,
                     request.storefrontCountryCodes?.joined(separator: ","), succeeded, failed, writer.now.millisecondsSince1970])
                try writer.notifySummary(.renewalExtension, .summary, summary: NotificationSummary(
                    environment: configuration.environment, appAppleId: configuration.appAppleID, bundleId: configuration.bundleID,
                    productId: request.productId, requestIdentifier: request.requestIdentifier,
                    storefrontCountryCodes: request.storefrontCountryCodes, succeededCount: Int64(succeeded), failedCount: Int64(failed)),
                    at: writer.now)
            }
        }
    }

    /// The status of a mass extension, or nil when none has that request identifier and product.
    func massExtensionStatus(productID: String, requestIdentifier: String) throws -> MassExtendRenewalDateStatusResponse? {
        try state.read { connection in
            try connection.fetchOne(
                """
                SELECT succeeded_count, failed_count, complete_date FROM local_store_mass_extension
                WHERE request_identifier = ? AND product_id = ?
                """,
                [Self.canonical(requestIdentifier), productID]
            ).map { row in
                MassExtendRenewalDateStatusResponse(
                    requestIdentifier: requestIdentifier, complete: true, completeDate: try row.decode(column: "complete_date"),
                    succeededCount: try row.decode(column: "succeeded_count"), failedCount: try row.decode(column: "failed_count"))
            }
        }
    }

    /// Attaches an app account token to a purchase: a subscription's later renewals and renewal
    /// info carry it; any other purchase is signed again carrying it.
    func setAppAccountToken(_ token: String, originalTransactionID: String) throws {
        guard let uuid = UUID(uuidString: token) else {
            throw ServerAPIFailure.badRequest(.invalidAppAccountTokenUuidError, "\(token) is not a UUID")
        }
        guard originalTransactionID.allSatisfy(\.isASCIIDigit), !originalTransactionID.isEmpty else {
            throw ServerAPIFailure.badRequest(.invalidOriginalTransactionId, "\(originalTransactionID) is not an original transaction id")
        }
        let canonical = uuid.uuidString.lowercased()
        try serially {
            _ = try catchUp()
            _ = try perform { writer in
                guard let record = try writer.transaction(id: originalTransactionID) else {
                    throw ServerAPIFailure.notFound(.originalTransactionIdNotFound, "no transaction \(originalTransactionID)")
                }
                guard record.id == record.originalID else {
                    throw ServerAPIFailure.badRequest(.transactionIdIsNotOriginalTransactionIdError,
                                                      "\(originalTransactionID) is not an original transaction id; use \(record.originalID)")
                }
                guard record.sharedFrom == nil else {
                    throw ServerAPIFailure.badRequest(.familyTransactionNotSupportedError, "a family-shared transaction takes no app account token")
                }
                if var subscription = try writer.subscription(originalID: originalTransactionID) {
                    subscription.appAccountToken = canonical
                    _ = try writer.issueRenewalInfo(for: &subscription, at: writer.now)
                    try subscription.save(in: writer.connection)
                } else {
                    _ = try writer.reissue(record, at: writer.now) { $0.appAccountToken = canonical }
                }
            }
        }
    }

    /// Signs a `TEST` notification, keeps it under a new token and sends it to the notification
    /// URL; without one, Apple's `4040007`.
    func sendTestNotification() throws -> String {
        guard try notificationURL() != nil else {
            throw ServerAPIFailure.notFound(.serverNotificationUrlNotFound, "no notification URL is set: store settings --notification-url URL")
        }
        return try serially {
            try perform { writer -> String in
                let uuid = UUID().uuidString.lowercased()
                let signedDate = writer.signingDate(for: writer.now)
                let payload = ResponseBodyV2DecodedPayload(
                    notificationType: .test, notificationUUID: uuid,
                    data: NotificationData(environment: configuration.environment, appAppleId: configuration.appAppleID,
                                           bundleId: configuration.bundleID),
                    version: "2.0", signedDate: signedDate)
                let token = "\(uuid)_\(signedDate.millisecondsSince1970)"
                try writer.connection.execute(
                    "INSERT INTO local_store_test_notification (token, signed_date, signed_payload, next_send_date) VALUES (?, ?, ?, ?)",
                    [token, signedDate.millisecondsSince1970, try writer.sign(payload), writer.now.millisecondsSince1970])
                return token
            }.0
        }
    }

    /// The signed payload of the test notification `token` (its UUID in any letter case), or nil.
    func testNotification(_ token: String) throws -> String? {
        try state.read {
            try $0.fetchValue(String.self, "SELECT signed_payload FROM local_store_test_notification WHERE token = ?", [token.lowercased()])
        }
    }

    /// A request identifier as kept: a UUID in lower case, whatever case it came in; anything
    /// else as given.
    static func canonical(_ identifier: String) -> String {
        UUID(uuidString: identifier) != nil ? identifier.lowercased() : identifier
    }

    /// The customer's app transaction, signed now: the app bought (downloaded) when they first
    /// bought anything.
    func signedAppTransaction(for transactionID: String) throws -> String {
        let transaction = try apiTransaction(transactionID)
        let customerID = transaction.record.customerID
        let first = try apiTransactions(customerID: customerID).map(\.record.purchaseDate).min() ?? transaction.record.purchaseDate
        return try serially {
            try perform { writer -> String in
                let payload = JWSAppTransactionDecodedPayload(
                    receiptType: configuration.environment, appAppleId: configuration.appAppleID, bundleId: configuration.bundleID,
                    applicationVersion: "1", receiptCreationDate: writer.signingDate(for: writer.now), originalPurchaseDate: first,
                    originalApplicationVersion: "1",
                    appTransactionId: String(SHA256Digest.hex(of: "app:\(configuration.bundleID):\(customerID)").prefix(20)),
                    originalPlatform: "iOS")
                return try writer.sign(payload)
            }.0
        }
    }

    // MARK: - Extensions

    private static func checkExtension(days: Int, reason: Int, requestIdentifier: String) throws {
        guard (1...90).contains(days) else { throw ServerAPIFailure.badRequest(.invalidExtendByDays, "extendByDays is 1–90, not \(days)") }
        guard (0...3).contains(reason) else {
            throw ServerAPIFailure.badRequest(.invalidExtendReasonCode, "extendReasonCode is 0–3, not \(reason)")
        }
        guard !requestIdentifier.isEmpty, requestIdentifier.count <= 128 else {
            throw ServerAPIFailure.badRequest(.invalidRequestIdentifier, "requestIdentifier is 1–128 characters")
        }
    }

    /// Moves an active subscription's renewal date by the request's days (at most twice a year,
    /// as Apple allows), signs its latest transaction again with the new expiry and records it.
    private func extend(_ subscription: inout SubscriptionRecord, by request: ExtendRenewalDateRequest,
                        writer: StoreWriter) throws -> TransactionRecord {
        guard subscription.state == .subscribed else {
            throw ServerAPIFailure(403, .subscriptionExtensionIneligible, "only an active subscription is extended; this one is \(subscription.state)")
        }
        let yearAgo = writer.now.addingTimeInterval(-365 * 86_400).millisecondsSince1970
        let recent = try writer.connection.fetchValue(
            Int.self, "SELECT count(*) FROM local_store_renewal_extension WHERE original_transaction_id = ? AND extended_date > ?",
            [subscription.originalID, yearAgo]) ?? 0
        guard recent < 2 else {
            throw ServerAPIFailure(403, .subscriptionMaxExtension, "the subscription was extended twice in the last 365 days")
        }
        let latest = try writer.requireTransaction(id: subscription.latestTransactionID)
        let expiry = subscription.expirationDate.addingTimeInterval(TimeInterval(request.extendByDays) * 86_400)
        let reissued = try writer.reissue(latest, at: writer.now) { $0.expiresDate = expiry }
        subscription.expirationDate = expiry
        try writer.connection.execute(
            """
            INSERT INTO local_store_renewal_extension (request_identifier, original_transaction_id, extend_by_days, reason_code,
                web_order_line_item_id, effective_date, extended_date)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [request.requestIdentifier, subscription.originalID, request.extendByDays, request.extendReasonCode,
             try reissued.payload().webOrderLineItemId, expiry.millisecondsSince1970, writer.now.millisecondsSince1970])
        return reissued
    }

    private static func recordedExtension(_ requestIdentifier: String, _ originalID: String,
                                          in connection: DatabaseConnection) throws -> ExtendRenewalDateResponse? {
        try connection.fetchOne(
            """
            SELECT web_order_line_item_id, effective_date FROM local_store_renewal_extension
            WHERE request_identifier = ? AND original_transaction_id = ?
            """,
            [requestIdentifier, originalID]
        ).map { row in
            ExtendRenewalDateResponse(originalTransactionId: originalID, webOrderLineItemId: try row.decode(column: "web_order_line_item_id"),
                                      success: true, effectiveDate: try row.decode(column: "effective_date"))
        }
    }
}
