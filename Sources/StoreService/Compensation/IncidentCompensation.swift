import AppStoreServerAPI
import Foundation
import StoreCore
import StorePolicy

/// Compensates subscribers for an incident: asks the policy's `renewal_extension` hook about
/// each active subscriber the ledger knows whom the incident touched, then extends their
/// renewal dates through the App Store Server API — one request per subscriber, or Apple's
/// mass extension for a product whose every subscriber gets the same — under request
/// identifiers made from the incident's meaning (``StorePolicy/Incident/compensationKey``), so a
/// second run, from the same file or the same incident saved again in other words, sends
/// nothing twice. Every request is recorded in the ledger (``StoreCore/RenewalExtensionRecord``).
public struct IncidentCompensation: Sendable {
    /// The service whose ledger and policy decide.
    public let service: Service

    /// Compensation over `service`.
    public init(service: Service) {
        self.service = service
    }

    /// Who gets what for `incident`, on each subscriber's state at `now`, and whom the ledger
    /// records as sent for it already: under its ``StorePolicy/Incident/compensationKey``, or
    /// under `fileDigest`, the SHA-256 of its file's bytes, which keyed the records of earlier
    /// versions.
    ///
    /// - Throws: ``StoreCore/LedgerError`` when the ledger cannot be read.
    public func plan(_ incident: Incident, fileDigest: String? = nil, now: Date = Date()) throws -> CompensationPlan {
        let key = try incident.compensationKey
        let sentBefore = try SentExtensions(try service.ledger.renewalExtensions(), keys: Set([key] + [fileDigest].compactMap { $0 }))
        var entries: [CompensationPlan.Entry] = []
        for customer in try service.ledger.customers() {
            let state = try service.ledger.customerState(customerID: customer.id, catalog: service.catalog, at: now)
            for statuses in state.subscriptionStatuses.values {
                for status in statuses where Self.touches(incident, status) {
                    guard let subscription = Self.subscription(status) else { continue }
                    if let storefronts = incident.storefronts, !storefronts.contains(subscription.storefront) { continue }
                    var context = PolicyContext(state: state, catalog: service.catalog, engine: service.engine,
                                                environment: service.verifier.environment)
                    context.customer.attributes = service.customerAttributes(customer.id)
                    let decision = service.engine.renewalExtension(context, subscription: subscription, incident: incident)
                    switch decision.source {
                    case .policy, .defaultForMissingHook:
                        let why = decision.value == nil
                            ? (decision.source == .defaultForMissingHook ? "the policy defines no renewal_extension hook" : "the hook answered nil")
                            : nil
                        entries.append(.init(customerID: customer.id, subscription: subscription, extensionGiven: decision.value, why: why,
                                             failed: false, sentBefore: sentBefore.covering(subscription)))
                    case .fallback(let failure):
                        entries.append(.init(customerID: customer.id, subscription: subscription, extensionGiven: nil,
                                             why: failure.description, failed: true, sentBefore: sentBefore.covering(subscription)))
                    }
                }
            }
        }
        entries.sort { ($0.subscription.productID, $0.subscription.originalTransactionID) < ($1.subscription.productID, $1.subscription.originalTransactionID) }
        var mass: [String: RenewalExtension] = [:]
        for (productID, shares) in Dictionary(grouping: entries, by: \.subscription.productID) {
            let given = Set(shares.map(\.extensionGiven))
            let sentOwnRequest = shares.contains { $0.sentBefore?.originalTransactionID != nil }
            if given.count == 1, let same = given.first, let same, shares.count > 1, !sentOwnRequest {
                mass[productID] = same
            }
        }
        return CompensationPlan(incident: incident, incidentKey: key, entries: entries, massProducts: mass, policyVersion: service.engine.version)
    }

    /// Sends the plan's requests through `client`, telling `progress` of each; a subscriber the
    /// plan found sent for the incident already is not sent again, and a request found under the
    /// incident file's digest is recorded under the incident's key from then on.
    public func apply(_ plan: CompensationPlan, client: AppStoreServerAPIClient,
                      progress: @Sendable (String) -> Void = { _ in }) async throws -> CompensationSummary {
        for earlier in Set(plan.entries.compactMap(\.sentBefore)) where earlier.incidentDigest != plan.incidentKey {
            try service.ledger.recordRenewalExtension(earlier.filed(under: plan.incidentKey))
        }
        var summary = CompensationSummary()
        for (productID, given) in plan.massProducts.sorted(by: { $0.key < $1.key }) {
            guard !plan.entries.contains(where: { $0.subscription.productID == productID && $0.sentBefore != nil }) else {
                summary.alreadySent += 1
                continue
            }
            let identifier = Self.requestIdentifier(plan.incidentKey, "product:\(productID)")
            let record = RenewalExtensionRecord(
                requestIdentifier: identifier, incidentDigest: plan.incidentKey, originalTransactionID: nil, customerID: nil,
                productID: productID, storefronts: plan.incident.storefronts, days: given.days, reasonCode: given.reason.rawValue,
                state: .sent, updatedDate: Date().millisecondsSince1970)
            try await send(record, to: "every subscriber of \(productID)", named: "\(productID) (mass extension)",
                           sentNote: " (mass extension \(identifier))", summary: &summary, progress: progress) { _ in
                _ = try await client.extendRenewalDateForAllActiveSubscribers(MassExtendRenewalDateRequest(
                    extendByDays: given.days, extendReasonCode: given.reason.rawValue, requestIdentifier: identifier,
                    storefrontCountryCodes: plan.incident.storefronts, productId: productID))
            }
        }
        for entry in plan.entries where plan.massProducts[entry.subscription.productID] == nil {
            let subscription = entry.subscription
            guard entry.sentBefore == nil else {
                summary.alreadySent += 1
                continue
            }
            guard let given = entry.extensionGiven else {
                if entry.failed { summary.failures.append("\(subscription.originalTransactionID): \(entry.why ?? "")") }
                else { summary.unextended += 1 }
                continue
            }
            let identifier = Self.requestIdentifier(plan.incidentKey, "subscription:\(subscription.originalTransactionID)")
            let record = RenewalExtensionRecord(
                requestIdentifier: identifier, incidentDigest: plan.incidentKey, originalTransactionID: subscription.originalTransactionID,
                customerID: entry.customerID, productID: subscription.productID, storefronts: nil, days: given.days,
                reasonCode: given.reason.rawValue, state: .sent, updatedDate: Date().millisecondsSince1970)
            try await send(record, to: "\(entry.customerID) \(subscription.originalTransactionID)", named: subscription.originalTransactionID,
                           summary: &summary, progress: progress) { record in
                let answer = try await client.extendRenewalDate(
                    originalTransactionID: subscription.originalTransactionID,
                    ExtendRenewalDateRequest(extendByDays: given.days, extendReasonCode: given.reason.rawValue, requestIdentifier: identifier))
                guard answer.success != false else { throw CompensationFailure(description: "Apple answered success false") }
                record.effectiveDate = answer.effectiveDate
            }
        }
        return summary
    }

    /// Sends `record`'s request with `request`, tells `progress` what became of it (as
    /// `subject`), counts it in `summary` (a failure as `name`), and records it in the ledger.
    private func send(_ record: RenewalExtensionRecord, to subject: String, named name: String, sentNote: String = "",
                      summary: inout CompensationSummary, progress: (String) -> Void,
                      request: (inout RenewalExtensionRecord) async throws -> Void) async throws {
        var record = record
        do {
            try await request(&record)
            summary.sent += 1
            progress("\(subject): +\(record.days) days\(sentNote)")
        } catch {
            record.state = .failed
            record.detail = "\(error)"
            summary.failures.append("\(name): \(error)")
            progress("\(subject): failed: \(error)")
        }
        try service.ledger.recordRenewalExtension(record)
    }

    /// Whether `incident` touched an active subscription: one of its products, subscribed or
    /// in its grace period now (Apple extends no other), its period running when the incident began.
    static func touches(_ incident: Incident, _ status: Product.SubscriptionInfo.Status) -> Bool {
        guard status.state == .subscribed || status.state == .inGracePeriod else { return false }
        if let products = incident.products, !products.contains(status.transaction.productID) { return false }
        let began = status.transaction.originalPurchaseDate ?? status.transaction.purchaseDate
        return began <= incident.end && (status.transaction.expirationDate ?? .distantFuture) >= incident.start
    }

    /// The subscription of `status` as the hook receives it.
    static func subscription(_ status: Product.SubscriptionInfo.Status) -> RenewalSubscription? {
        let transaction = status.transaction
        let storefront = (try? CompactJWS(parsing: transaction.jwsRepresentation).decodePayload(as: JWSTransactionDecodedPayload.self))?.storefront
        return RenewalSubscription(originalTransactionID: transaction.originalID, productID: transaction.productID,
                                   groupID: status.subscriptionGroupID, state: SubscriptionState(status.state),
                                   expiresDate: transaction.expirationDate, storefront: storefront ?? "USA",
                                   willAutoRenew: status.renewalInfo?.willAutoRenew ?? false)
    }

    /// A UUID made from the incident's key and what the request extends: the same on every run.
    static func requestIdentifier(_ incidentKey: String, _ subject: String) -> String {
        var bytes = Array(SHA256Digest.bytes(of: "renewal-extension:\(incidentKey):\(subject)").prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x50
        bytes[8] = bytes[8] & 0x3F | 0x80
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }
}

/// An extension Apple answered without accepting it.
struct CompensationFailure: Error, CustomStringConvertible {
    let description: String
}
