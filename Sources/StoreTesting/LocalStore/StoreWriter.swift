import Foundation
import StoreCore
import SQLiteLedger

/// One unit of store work, inside one database write: it reads and changes the store's
/// tables, signs what changed, and records what is owed to the app (deliveries) and to the
/// server (the notification outbox). Everything it does commits together or not at all.
///
/// Signatures are dated by a signing clock that never goes back and never repeats a
/// millisecond, so a later version of a transaction or renewal info always carries a later
/// `signedDate`, even when several changes happen at one instant of a manual clock.
final class StoreWriter {
    let connection: DatabaseConnection
    let context: StoreContext
    let settings: LocalStoreSettings
    let timeline: StoreTimeline
    /// The store's time for this unit of work.
    private(set) var now: Date
    private var state: State

    /// The persisted clock and counters.
    private struct State {
        var clockOffsetMilliseconds: Int64
        var manualNowMilliseconds: Int64?
        var lastSignedMilliseconds: Int64
        var nextTransactionNumber: Int64
        var nextWebOrderNumber: Int64
    }

    /// The first transaction number; ids read like the App Store's.
    static let firstTransactionNumber: Int64 = 2_000_000_000_000_001
    /// The first web order line item number.
    static let firstWebOrderNumber: Int64 = 1_000_000_000_000_001

    var catalog: Catalog { context.catalog }
    var configuration: LocalStore.Configuration { context.configuration }

    init(connection: DatabaseConnection, context: StoreContext) throws {
        self.connection = connection
        self.context = context
        let settings = try Self.loadSettings(connection, catalog: context.catalog)
        self.settings = settings
        timeline = StoreTimeline(rate: settings.timeRate)
        guard let row = try connection.fetchOne(
            """
            SELECT clock_offset_ms, manual_now_ms, last_signed_ms, next_transaction_number, next_web_order_number
            FROM local_store_state WHERE id = 1
            """)
        else {
            throw SQLiteError(extendedResultCode: .corrupt, message: "the local store has no state row",
                              sql: "SELECT … FROM local_store_state")
        }
        state = State(
            clockOffsetMilliseconds: try row.decode(column: "clock_offset_ms"),
            manualNowMilliseconds: try row.decode(column: "manual_now_ms"),
            lastSignedMilliseconds: try row.decode(column: "last_signed_ms"),
            nextTransactionNumber: try row.decode(column: "next_transaction_number"),
            nextWebOrderNumber: try row.decode(column: "next_web_order_number"))
        switch context.configuration.clock {
        case .system:
            now = Date(millisecondsSince1970: Date().millisecondsSince1970 + state.clockOffsetMilliseconds)
        case .manual(let start):
            let milliseconds = state.manualNowMilliseconds ?? start.millisecondsSince1970
            state.manualNowMilliseconds = milliseconds
            now = Date(millisecondsSince1970: milliseconds)
        }
    }

    /// Creates the state row of a new store.
    static func createState(in connection: DatabaseConnection) throws {
        try connection.execute(
            """
            INSERT OR IGNORE INTO local_store_state
                (id, clock_offset_ms, manual_now_ms, last_signed_ms, next_transaction_number, next_web_order_number)
            VALUES (1, 0, NULL, 0, ?, ?)
            """,
            [firstTransactionNumber, firstWebOrderNumber])
    }

    /// Writes the clock and counters back.
    func saveState() throws {
        try connection.execute(
            """
            UPDATE local_store_state SET clock_offset_ms = ?, manual_now_ms = ?, last_signed_ms = ?,
                next_transaction_number = ?, next_web_order_number = ?
            WHERE id = 1
            """,
            [state.clockOffsetMilliseconds, state.manualNowMilliseconds, state.lastSignedMilliseconds,
             state.nextTransactionNumber, state.nextWebOrderNumber])
    }

    // MARK: - Clock

    /// Moves the store's clock forward to `date`.
    func moveClock(to date: Date) {
        let delta = date.millisecondsSince1970 - now.millisecondsSince1970
        switch configuration.clock {
        case .system:
            state.clockOffsetMilliseconds += delta
        case .manual:
            state.manualNowMilliseconds = date.millisecondsSince1970
        }
        now = date
    }

    // MARK: - Settings

    static let settingNames = (
        askToBuy: "askToBuyEnabled", billingRetry: "shouldEnterBillingRetryOnRenewal",
        gracePeriod: "billingGracePeriodIsEnabled", timeRate: "timeRate", simulatedFailure: "simulatedError:",
        winBackPaidMonths: "winBackPaidMonths", winBackMinimumMonthsSinceLapse: "winBackMinimumMonthsSinceLapse",
        winBackMaximumMonthsSinceLapse: "winBackMaximumMonthsSinceLapse", winBackMonthsBetweenOffers: "winBackMonthsBetweenOffers")

    static func loadSettings(_ connection: DatabaseConnection, catalog: Catalog) throws -> LocalStoreSettings {
        var settings = LocalStoreSettings(catalog.settings)
        var lapse: (minimum: Int?, maximum: Int?) = (nil, nil)
        for row in try connection.fetchAll("SELECT name, value FROM local_store_setting") {
            let value: Int = try row.decode(column: "value")
            switch try row.decode(String.self, column: "name") {
            case settingNames.askToBuy: settings.askToBuyEnabled = value != 0
            case settingNames.billingRetry: settings.shouldEnterBillingRetryOnRenewal = value != 0
            case settingNames.gracePeriod: settings.billingGracePeriodIsEnabled = value != 0
            case settingNames.timeRate: settings.timeRate = TimeRate(rawValue: value) ?? settings.timeRate
            case settingNames.winBackPaidMonths: settings.winBackCriteria.paidMonths = value > 0 ? value : nil
            case settingNames.winBackMinimumMonthsSinceLapse: lapse.minimum = value > 0 ? value : nil
            case settingNames.winBackMaximumMonthsSinceLapse: lapse.maximum = value > 0 ? value : nil
            case settingNames.winBackMonthsBetweenOffers: settings.winBackCriteria.monthsBetweenOffers = value > 0 ? value : nil
            case let name where name.hasPrefix(settingNames.simulatedFailure):
                guard let api = StoreKitErrorSetting.API(rawValue: String(name.dropFirst(settingNames.simulatedFailure.count))) else { break }
                if value != 0 { settings.simulatedFailures.insert(api) } else { settings.simulatedFailures.remove(api) }
            default: break
            }
        }
        if let minimum = lapse.minimum, let maximum = lapse.maximum, minimum <= maximum {
            settings.winBackCriteria.monthsSinceLapse = minimum...maximum
        }
        return settings
    }

    static func saveSettings(_ settings: LocalStoreSettings, in connection: DatabaseConnection) throws {
        let values: [(String, Int)] = [
            (settingNames.askToBuy, settings.askToBuyEnabled ? 1 : 0),
            (settingNames.billingRetry, settings.shouldEnterBillingRetryOnRenewal ? 1 : 0),
            (settingNames.gracePeriod, settings.billingGracePeriodIsEnabled ? 1 : 0),
            (settingNames.timeRate, settings.timeRate.rawValue),
            (settingNames.winBackPaidMonths, settings.winBackCriteria.paidMonths ?? 0),
            (settingNames.winBackMinimumMonthsSinceLapse, settings.winBackCriteria.monthsSinceLapse?.lowerBound ?? 0),
            (settingNames.winBackMaximumMonthsSinceLapse, settings.winBackCriteria.monthsSinceLapse?.upperBound ?? 0),
            (settingNames.winBackMonthsBetweenOffers, settings.winBackCriteria.monthsBetweenOffers ?? 0),
        ] + StoreKitErrorSetting.API.allCases.map { api in
            (settingNames.simulatedFailure + api.rawValue, settings.simulatedFailures.contains(api) ? 1 : 0)
        }
        for (name, value) in values {
            try connection.execute(
                "INSERT INTO local_store_setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                [name, value])
        }
    }

    // MARK: - Identifiers and signatures

    func nextTransactionID() -> String {
        defer { state.nextTransactionNumber += 1 }
        return String(state.nextTransactionNumber)
    }

    func nextWebOrderLineItemID() -> String {
        defer { state.nextWebOrderNumber += 1 }
        return String(state.nextWebOrderNumber)
    }

    /// The signing date of something that happens at `event`: that instant, or a millisecond
    /// after the previous signature when that is later.
    func signingDate(for event: Date) -> Date {
        let milliseconds = max(event.millisecondsSince1970, state.lastSignedMilliseconds + 1)
        state.lastSignedMilliseconds = milliseconds
        return Date(millisecondsSince1970: milliseconds)
    }

    func sign<Payload: SignedPayload>(_ payload: Payload) throws -> String {
        try context.authority.sign(payload)
    }

    // MARK: - Records

    func transaction(id: String) throws -> TransactionRecord? {
        try connection.fetchOne(
            "SELECT \(TransactionRecord.columns) FROM local_store_transaction WHERE transaction_id = ?", [id]
        ).map(TransactionRecord.init(row:))
    }

    func requireTransaction(id: String) throws -> TransactionRecord {
        guard let record = try transaction(id: id) else { throw LocalStoreError.unknownTransaction(id) }
        return record
    }

    func transactions(_ clause: String, _ arguments: StatementArguments) throws -> [TransactionRecord] {
        try connection.fetchAll("SELECT \(TransactionRecord.columns) FROM local_store_transaction \(clause)", arguments)
            .map(TransactionRecord.init(row:))
    }

    func subscription(originalID: String) throws -> SubscriptionRecord? {
        try subscriptions("WHERE original_transaction_id = ?", [originalID]).first
    }

    /// The customer's own (not family-shared) subscription in the group.
    func ownSubscription(customerID: String, groupID: String) throws -> SubscriptionRecord? {
        try subscriptions("WHERE customer_id = ? AND group_id = ? AND shared_from IS NULL", [customerID, groupID]).first
    }

    func requireOwnSubscription(customerID: String, groupID: String) throws -> SubscriptionRecord {
        guard catalog.group(id: groupID) != nil else { throw LocalStoreError.unknownSubscriptionGroup(groupID) }
        guard let subscription = try ownSubscription(customerID: customerID, groupID: groupID) else {
            throw LocalStoreError.noSubscription(customerID: customerID, groupID: groupID)
        }
        return subscription
    }

    func subscriptions(_ clause: String, _ arguments: StatementArguments) throws -> [SubscriptionRecord] {
        try connection.fetchAll("SELECT \(SubscriptionRecord.columns) FROM local_store_subscription \(clause)", arguments)
            .map(SubscriptionRecord.init(row:))
    }

    // MARK: - Issuing signed data

    /// Signs a new transaction dated `event`, records it and owes it to the app.
    func issue(_ payload: JWSTransactionDecodedPayload, productType: ProductType, customerID: String,
               sharedFrom: String?, at event: Date) throws -> TransactionRecord {
        var payload = payload
        payload.signedDate = signingDate(for: event)
        let jws = try sign(payload)
        let record = TransactionRecord(payload: payload, productType: productType, customerID: customerID,
                                       sharedFrom: sharedFrom, jws: jws)
        try record.save(in: connection)
        try owe(.transaction, jws, to: customerID)
        return record
    }

    /// Signs a new version of a transaction, changed by `change`, dated `event`.
    func reissue(_ record: TransactionRecord, at event: Date,
                 _ change: (inout JWSTransactionDecodedPayload) -> Void) throws -> TransactionRecord {
        var payload = try record.payload()
        change(&payload)
        return try issue(payload, productType: record.productType, customerID: record.customerID,
                         sharedFrom: record.sharedFrom, at: event)
    }

    /// Signs the subscription's renewal info as it stands, keeps it as the latest, and owes it
    /// to the app.
    func issueRenewalInfo(for subscription: inout SubscriptionRecord, at event: Date) throws -> String {
        var payload = try renewalInfoPayload(for: subscription)
        payload.signedDate = signingDate(for: event)
        let jws = try sign(payload)
        subscription.renewalInfoJWS = jws
        try owe(.renewalInfo, jws, to: subscription.customerID)
        return jws
    }

    /// What is owed to the app after the write commits.
    enum DeliveryKind: String {
        case transaction, renewalInfo, notification
    }

    func owe(_ kind: DeliveryKind, _ jws: String, to customerID: String) throws {
        try connection.execute(
            "INSERT INTO local_store_delivery (customer_id, kind, jws) VALUES (?, ?, ?)", [customerID, kind.rawValue, jws])
    }

    /// Signs an App Store Server Notification V2 and puts it in the outbox.
    func notify(_ type: NotificationTypeV2, _ subtype: NotificationSubtype?, customerID: String, at event: Date,
                transaction: TransactionRecord?, renewalInfoJWS: String?,
                status: AutoRenewableSubscriptionStatus?, consumptionRequestReason: ConsumptionRequestReason? = nil) throws {
        let data = NotificationData(
            environment: configuration.environment, appAppleId: configuration.appAppleID,
            bundleId: configuration.bundleID, signedTransactionInfo: transaction?.jws,
            signedRenewalInfo: renewalInfoJWS, status: status, consumptionRequestReason: consumptionRequestReason)
        try putInOutbox(type, subtype, customerID: customerID, at: event, data: data, summary: nil, transaction: transaction)
    }

    /// Signs a notification that sums up work done for many customers (a mass renewal
    /// extension's `RENEWAL_EXTENSION` / `SUMMARY`) and puts it in the outbox, about no customer.
    func notifySummary(_ type: NotificationTypeV2, _ subtype: NotificationSubtype?, summary: NotificationSummary, at event: Date) throws {
        try putInOutbox(type, subtype, customerID: "", at: event, data: nil, summary: summary, transaction: nil)
    }

    private func putInOutbox(_ type: NotificationTypeV2, _ subtype: NotificationSubtype?, customerID: String, at event: Date,
                             data: NotificationData?, summary: NotificationSummary?, transaction: TransactionRecord?) throws {
        let uuid = UUID().uuidString.lowercased()
        let signedDate = signingDate(for: event)
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid, data: data, version: "2.0", signedDate: signedDate,
            summary: summary)
        let jws = try sign(payload)
        let sendsNow = try LocalStore.notificationURL(in: connection) != nil
        try connection.execute(
            """
            INSERT INTO local_store_notification (notification_uuid, customer_id, notification_type, subtype,
                transaction_id, original_transaction_id, signed_date, signed_payload, next_send_date)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [uuid, customerID, type.rawValue, subtype?.rawValue, transaction?.id, transaction?.originalID,
             signedDate.millisecondsSince1970, jws, sendsNow ? event.millisecondsSince1970 : nil])
        if !customerID.isEmpty { try owe(.notification, jws, to: customerID) }
    }

    /// Saves the subscription and sends a notification about it carrying its latest
    /// transaction (or `transaction`) and freshly signed renewal info.
    func notify(_ type: NotificationTypeV2, _ subtype: NotificationSubtype?, about subscription: inout SubscriptionRecord,
                at event: Date, transaction: TransactionRecord? = nil) throws {
        let renewalInfo = try issueRenewalInfo(for: &subscription, at: event)
        try subscription.save(in: connection)
        let carried = try transaction ?? requireTransaction(id: subscription.latestTransactionID)
        try notify(type, subtype, customerID: subscription.customerID, at: event, transaction: carried,
                   renewalInfoJWS: renewalInfo, status: subscription.state.notificationStatus)
    }
}
