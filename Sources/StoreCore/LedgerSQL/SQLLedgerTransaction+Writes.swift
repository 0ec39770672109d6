import SignedData

extension SQLLedgerTransaction {
    public func lockTransaction(id: String) throws -> StoredTransaction? {
        try connection.firstRow(
            "SELECT \(sql: LedgerRecords.transactionColumns) FROM store_transaction WHERE transaction_id = \(id)\(.rowLock)"
        ).map(LedgerRecords.transaction(from:))
    }

    public func insertCustomer(id: String, appAccountToken: String?, createdDate: Int64) throws {
        try connection.send(
            """
            INSERT INTO customer (id, app_account_token, created_date) VALUES (\(id), \(appAccountToken), \(createdDate))
            ON CONFLICT (id) DO NOTHING
            """)
    }

    public func setAppAccountToken(_ token: String, customerID: String) throws -> Bool {
        try connection.returnsRow(
            """
            UPDATE customer SET app_account_token = \(token) WHERE id = \(customerID) AND app_account_token IS NULL
            RETURNING 1 AS updated
            """)
    }

    public func insertTransaction(_ transaction: StoredTransaction, storedDate: Int64, finishedDate: Int64?, grantAttempts: Int) throws -> Bool {
        let (state, reason, detail) = transaction.grantState.columns
        return try connection.returnsRow(
            """
            INSERT INTO store_transaction (
                transaction_id, original_transaction_id, customer_id, product_id, product_type,
                subscription_group_id, purchase_date, original_purchase_date, expires_date, quantity,
                revocation_date, revocation_reason, is_upgraded, ownership_type, offer_type, offer_id,
                app_account_token, environment, signed_date, jws, grant_state, unfinished_reason,
                unfinished_detail, stored_date, finished_date, grant_attempts, price, currency, offer_discount_type,
                storefront
            ) VALUES (
                \(transaction.id), \(transaction.originalID), \(transaction.customerID), \(transaction.productID),
                \(transaction.productType.rawValue), \(transaction.subscriptionGroupID),
                \(transaction.purchaseDate.millisecondsSince1970), \(transaction.originalPurchaseDate?.millisecondsSince1970),
                \(transaction.expirationDate?.millisecondsSince1970), \(transaction.purchasedQuantity),
                \(transaction.revocationDate?.millisecondsSince1970), \(transaction.revocationReason?.rawValue),
                \(transaction.isUpgraded), \(transaction.ownershipType?.rawValue), \(transaction.offerType?.rawValue),
                \(transaction.offerID), \(transaction.appAccountToken), \(transaction.environment.rawValue),
                \(transaction.signedDate.millisecondsSince1970), \(transaction.jwsRepresentation), \(state), \(reason),
                \(detail), \(storedDate), \(finishedDate), \(grantAttempts), \(transaction.price),
                \(transaction.currency), \(transaction.offerDiscountType?.rawValue), \(transaction.storefront)
            ) ON CONFLICT (transaction_id) DO NOTHING RETURNING 1 AS inserted
            """)
    }

    public func insertVersion(_ version: TransactionVersion) throws -> Bool {
        try connection.returnsRow(
            """
            INSERT INTO transaction_version (transaction_id, jws_digest, jws, signed_date, revocation_date, received_date)
            VALUES (\(version.transactionID), \(SHA256Digest.hex(of: version.jwsRepresentation)), \(version.jwsRepresentation),
                    \(version.signedDate.millisecondsSince1970), \(version.revocationDate?.millisecondsSince1970),
                    \(version.receivedDate.millisecondsSince1970))
            ON CONFLICT (transaction_id, jws_digest) DO NOTHING RETURNING 1 AS inserted
            """)
    }

    public func insertFirstVersion(_ version: TransactionVersion) throws {
        try connection.send(
            """
            INSERT INTO transaction_version (transaction_id, jws_digest, jws, signed_date, revocation_date, received_date)
            VALUES (\(version.transactionID), \(SHA256Digest.hex(of: version.jwsRepresentation)), \(version.jwsRepresentation),
                    \(version.signedDate.millisecondsSince1970), \(version.revocationDate?.millisecondsSince1970),
                    \(version.receivedDate.millisecondsSince1970))
            """)
    }

    public func updateChangeableFields(of transaction: StoredTransaction) throws {
        try connection.send(
            """
            UPDATE store_transaction SET subscription_group_id = \(transaction.subscriptionGroupID),
                original_purchase_date = \(transaction.originalPurchaseDate?.millisecondsSince1970),
                expires_date = \(transaction.expirationDate?.millisecondsSince1970),
                revocation_date = \(transaction.revocationDate?.millisecondsSince1970),
                revocation_reason = \(transaction.revocationReason?.rawValue), is_upgraded = \(transaction.isUpgraded),
                ownership_type = \(transaction.ownershipType?.rawValue), offer_type = \(transaction.offerType?.rawValue),
                offer_id = \(transaction.offerID), app_account_token = \(transaction.appAccountToken),
                signed_date = \(transaction.signedDate.millisecondsSince1970), jws = \(transaction.jwsRepresentation)
            WHERE transaction_id = \(transaction.id)
            """)
    }

    public func setGrantState(_ state: GrantState, transactionID: String, finishedDate: Int64?, countsAttempt: Bool) throws {
        let (stateColumn, reason, detail) = state.columns
        try connection.send(
            """
            UPDATE store_transaction SET grant_state = \(stateColumn), unfinished_reason = \(reason),
                unfinished_detail = \(detail), finished_date = \(finishedDate), grant_attempts = grant_attempts + \(countsAttempt ? 1 : 0)
            WHERE transaction_id = \(transactionID)
            """)
    }

    public func insertGrants(_ grants: [Grant], transactionID: String, grantedDate: Int64) throws {
        guard !grants.isEmpty else { return }
        let rows = grants.enumerated().map { position, grant -> LedgerSQL in
            "(\(transactionID), \(position), \(grant.item), \(grant.amount), \(grantedDate))"
        }
        try connection.send(
            "INSERT INTO transaction_grant (transaction_id, position, item, amount, granted_date) VALUES \(sql: .joined(rows, separator: ", "))")
    }

    public func insertReversals(positions: [Int], transactionID: String, reversedDate: Int64) throws {
        guard !positions.isEmpty else { return }
        let rows = positions.map { position -> LedgerSQL in "(\(transactionID), \(position), \(reversedDate))" }
        try connection.send(
            "INSERT INTO grant_reversal (transaction_id, position, reversed_date) VALUES \(sql: .joined(rows, separator: ", "))")
    }

    public func deleteReversals(transactionID: String) throws {
        try connection.send("DELETE FROM grant_reversal WHERE transaction_id = \(transactionID)")
    }

    public func adjustBalances(customerID: String, by amounts: [String: Int]) throws {
        guard !amounts.isEmpty else { return }
        let rows = amounts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { item, amount -> LedgerSQL in
            "(\(customerID), \(item), \(amount))"
        }
        try connection.send(
            """
            INSERT INTO balance (customer_id, item, amount) VALUES \(sql: .joined(rows, separator: ", "))
            ON CONFLICT (customer_id, item) DO UPDATE SET amount = balance.amount + excluded.amount
            """)
    }

    public func insertEvent(_ event: MerchandisingEvent) throws {
        try connection.send(
            """
            INSERT INTO merchandising_event (\(sql: LedgerRecords.eventColumns))
            VALUES (\(event.customerID), \(event.name), \(event.placement), \(event.occurredDate))
            """)
    }

    public func upsertRenewalInfo(_ received: StoredRenewalInfo, storedDate: Int64) throws -> Bool {
        try connection.returnsRow(
            """
            INSERT INTO renewal_info (
                original_transaction_id, product_id, auto_renew_product_id, auto_renew_status, expiration_intent,
                is_in_billing_retry_period, price_increase_status, grace_period_expires_date, offer_type, offer_id,
                environment, recent_subscription_start_date, renewal_date, app_account_token, signed_date, jws,
                stored_date, eligible_win_back_offer_ids
            ) VALUES (
                \(received.originalTransactionID), \(received.currentProductID), \(received.autoRenewPreference),
                \(received.autoRenewStatus?.rawValue), \(received.expirationReason?.rawValue), \(received.isInBillingRetry),
                \(received.priceIncreaseStatus?.rawValue), \(received.gracePeriodExpirationDate?.millisecondsSince1970),
                \(received.offerType?.rawValue), \(received.offerID), \(received.environment?.rawValue),
                \(received.recentSubscriptionStartDate?.millisecondsSince1970), \(received.renewalDate?.millisecondsSince1970),
                \(received.appAccountToken), \(received.signedDate.millisecondsSince1970), \(received.jwsRepresentation),
                \(storedDate), \(LedgerRecords.offerIDsJSON(received.eligibleWinBackOfferIDs))
            ) ON CONFLICT (original_transaction_id) DO UPDATE SET
                product_id = excluded.product_id, auto_renew_product_id = excluded.auto_renew_product_id,
                auto_renew_status = excluded.auto_renew_status, expiration_intent = excluded.expiration_intent,
                is_in_billing_retry_period = excluded.is_in_billing_retry_period,
                price_increase_status = excluded.price_increase_status,
                grace_period_expires_date = excluded.grace_period_expires_date, offer_type = excluded.offer_type,
                offer_id = excluded.offer_id, environment = excluded.environment,
                recent_subscription_start_date = excluded.recent_subscription_start_date,
                renewal_date = excluded.renewal_date, app_account_token = excluded.app_account_token,
                signed_date = excluded.signed_date, jws = excluded.jws, stored_date = excluded.stored_date,
                eligible_win_back_offer_ids = excluded.eligible_win_back_offer_ids
            WHERE renewal_info.signed_date < excluded.signed_date
            RETURNING 1 AS stored
            """)
    }

    public func insertProcessedNotification(_ notification: ProcessedNotification) throws -> Bool {
        try connection.returnsRow(
            """
            INSERT INTO processed_notification (\(sql: LedgerRecords.processedNotificationColumns))
            VALUES (\(notification.uuid), \(notification.type), \(notification.subtype), \(notification.signedDate),
                    \(notification.processedDate))
            ON CONFLICT (notification_uuid) DO NOTHING RETURNING 1 AS inserted
            """)
    }

    public func insertPendingNotification(_ notification: PendingNotification) throws -> Bool {
        try connection.returnsRow(
            """
            INSERT INTO pending_notification (\(sql: LedgerRecords.pendingNotificationColumns))
            VALUES (\(notification.uuid), \(notification.type), \(notification.subtype), \(notification.signedDate),
                    \(notification.transactionJWS), \(notification.transactionID), \(notification.originalTransactionID),
                    \(notification.appAccountToken), \(notification.receivedDate))
            ON CONFLICT (notification_uuid) DO NOTHING RETURNING 1 AS inserted
            """)
    }

    public func deletePendingNotification(uuid: String) throws {
        try connection.send("DELETE FROM pending_notification WHERE notification_uuid = \(uuid)")
    }

    public func upsertReconciliationMark(_ mark: ReconciliationMark) throws {
        try connection.send(
            """
            INSERT INTO reconciliation_mark (kind, mark_key, value, updated_date)
            VALUES (\(mark.kind.rawValue), \(mark.key), \(mark.value), \(mark.updatedDate))
            ON CONFLICT (kind, mark_key) DO UPDATE SET value = excluded.value, updated_date = excluded.updated_date
            """)
    }

    public func insertNotificationConflict(_ conflict: NotificationConflict) throws -> Bool {
        try connection.returnsRow(
            """
            INSERT INTO notification_conflict (\(sql: LedgerRecords.notificationConflictColumns))
            VALUES (\(conflict.uuid), \(conflict.type), \(conflict.subtype), \(conflict.transactionID), \(conflict.field),
                    \(conflict.stored), \(conflict.received), \(conflict.transactionJWS), \(conflict.receivedDate))
            ON CONFLICT (notification_uuid) DO NOTHING RETURNING 1 AS inserted
            """)
    }

    public func insertConsumptionRequest(_ request: ConsumptionRequestRecord) throws -> Bool {
        try connection.returnsRow(
            """
            INSERT INTO consumption_request (\(sql: LedgerRecords.consumptionRequestColumns))
            VALUES (\(request.notificationUUID), \(request.transactionID), \(request.originalTransactionID), \(request.transactionJWS),
                    \(request.reason), \(request.receivedDate), \(request.deadlineDate), \(request.state.rawValue),
                    \(LedgerRecords.text(of: request.answer)), \(request.policyVersion), \(request.attempts), \(request.lastError),
                    \(request.nextAttemptDate), \(request.answeredDate))
            ON CONFLICT (notification_uuid) DO NOTHING RETURNING 1 AS inserted
            """)
    }

    public func claimConsumptionRequest(notificationUUID: String, at now: Int64, heldUntil: Int64) throws -> ConsumptionRequestRecord? {
        try connection.rows(
            """
            UPDATE consumption_request SET next_attempt_date = \(heldUntil)
            WHERE notification_uuid = \(notificationUUID) AND state = 'pending' AND next_attempt_date <= \(now)
            RETURNING \(sql: LedgerRecords.consumptionRequestColumns)
            """
        ).first.map(LedgerRecords.consumptionRequest(from:))
    }

    public func updateConsumptionRequest(_ request: ConsumptionRequestRecord) throws -> Bool {
        try !connection.rows(
            """
            UPDATE consumption_request SET state = \(request.state.rawValue), answer = \(LedgerRecords.text(of: request.answer)),
                policy_version = \(request.policyVersion), attempts = \(request.attempts), last_error = \(request.lastError),
                next_attempt_date = \(request.nextAttemptDate), answered_date = \(request.answeredDate)
            WHERE notification_uuid = \(request.notificationUUID) AND state = 'pending'
            RETURNING notification_uuid
            """
        ).isEmpty
    }

    public func hastenConsumptionRequests(transactionID: String, at now: Int64, heldBefore: Int64) throws -> Int {
        try connection.rows(
            """
            UPDATE consumption_request SET next_attempt_date = \(now)
            WHERE transaction_id = \(transactionID) AND state = 'pending' AND answer IS NULL AND next_attempt_date > \(heldBefore)
            RETURNING notification_uuid
            """
        ).count
    }

    public func upsertRenewalExtension(_ record: RenewalExtensionRecord) throws {
        try connection.send(
            """
            INSERT INTO renewal_extension (\(sql: LedgerRecords.renewalExtensionColumns))
            VALUES (\(record.requestIdentifier), \(record.incidentDigest), \(record.originalTransactionID), \(record.customerID),
                    \(record.productID), \(record.storefronts?.joined(separator: ",")), \(record.days), \(record.reasonCode),
                    \(record.state.rawValue), \(record.effectiveDate), \(record.detail), \(record.updatedDate))
            ON CONFLICT (request_identifier) DO UPDATE SET incident_digest = excluded.incident_digest, state = excluded.state,
                effective_date = excluded.effective_date, detail = excluded.detail, updated_date = excluded.updated_date
            """)
    }
}
