/// Finds the events in one change of a customer: the transactions the write settled, and the
/// difference between the state last reported and the state after the write.
///
/// The ledger never branches on a notification's type: it stores what a notification or the app
/// brings. So events are read from what changed, whoever brought it, and each is reported once.
struct OutgoingEventClassifier {
    /// The state last reported.
    let previous: ReportedCustomerState
    /// The state after the write.
    let current: ReportedCustomerState
    /// The level in its group of a subscription product (1 is the highest service), from the catalog.
    let level: (String) -> Int?

    /// The events of a write that settled `facts`, in the order they are numbered: each
    /// transaction's own events, then each subscription's, then entitlements.
    func events(settling facts: [TransactionIngestResult]) -> [OutgoingEventDraft] {
        var drafts: [OutgoingEventDraft] = []
        var subscriptionGrants: [String: [Grant]] = [:]
        for fact in facts {
            let transaction = fact.transaction
            switch fact.outcome {
            case .granted(let grants) where transaction.productType == .autoRenewableSubscription:
                subscriptionGrants[transaction.id] = grants
            case .granted(let grants):
                drafts.append(OutgoingEventDraft(.purchaseGranted, transaction: transaction, grants: grants))
            case .revoked(let reversed):
                let type: OutgoingEventType = transaction.ownershipType == .familyShared ? .transactionRevoked : .transactionRefunded
                drafts.append(OutgoingEventDraft(type, transaction: transaction, grants: reversed))
            case .revocationWithdrawn(let restored):
                drafts.append(OutgoingEventDraft(.transactionRefundReversed, transaction: transaction, grants: restored))
            case .alreadyFinished, .unfinished:
                break
            }
        }
        for subscription in current.subscriptions {
            let before = previous.subscription(subscription.originalTransactionID)
            drafts += events(of: subscription, before: before).map { draft in
                var draft = draft
                draft.transaction = facts.first { $0.transaction.id == subscription.transactionID }?.transaction
                draft.grants = subscriptionGrants[subscription.transactionID]
                return draft
            }
        }
        if previous.entitlements != current.entitlements {
            drafts.append(OutgoingEventDraft(.entitlementsChanged, previousEntitlements: previous.entitlements))
        }
        return drafts
    }

    /// The events of one subscription between the last report and now.
    private func events(of now: ReportedSubscription, before: ReportedSubscription?) -> [OutgoingEventDraft] {
        guard let before else {
            return now.status.givesService ? [OutgoingEventDraft(.subscriptionStarted, subscription: now)] : []
        }
        var drafts: [OutgoingEventDraft] = []
        if now.transactionID != before.transactionID {
            drafts += newPeriod(now, before: before)
        } else {
            drafts += sameTransaction(now, before: before)
        }
        drafts += renewalChanges(now, before: before)
        return drafts
    }

    /// A new transaction in the chain: a renewal, a recovery, a change of product, or a lapsed
    /// subscription bought again.
    private func newPeriod(_ now: ReportedSubscription, before: ReportedSubscription) -> [OutgoingEventDraft] {
        guard now.status != .revoked else { return [] }
        let wasRetrying = before.status == .inGracePeriod || before.status == .inBillingRetryPeriod
        if !before.status.givesService, !wasRetrying {
            return now.status.givesService ? [OutgoingEventDraft(.subscriptionStarted, subscription: now)] : []
        }
        if now.productID != before.productID, before.renewsToProductID != now.productID {
            return [OutgoingEventDraft(change(from: before.productID, to: now.productID), subscription: now,
                                       previousProductID: before.productID, effective: "now")]
        }
        let previousProductID = now.productID == before.productID ? nil : before.productID
        return [OutgoingEventDraft(wasRetrying ? .subscriptionRecovered : .subscriptionRenewed, subscription: now,
                                   previousProductID: previousProductID)]
    }

    /// The same latest transaction: an extension, or a state the clock or the renewal info changed.
    private func sameTransaction(_ now: ReportedSubscription, before: ReportedSubscription) -> [OutgoingEventDraft] {
        var drafts: [OutgoingEventDraft] = []
        if let end = now.expiresDate, let earlier = before.expiresDate, end > earlier, now.status != .revoked {
            drafts.append(OutgoingEventDraft(.subscriptionExtended, subscription: now))
        }
        guard now.status != before.status else { return drafts }
        switch now.status {
        case .inGracePeriod:
            drafts.append(OutgoingEventDraft(.subscriptionGracePeriodStarted, subscription: now))
        case .inBillingRetryPeriod:
            drafts.append(OutgoingEventDraft(.subscriptionBillingRetryStarted, subscription: now))
        case .expired where before.status != .revoked:
            drafts.append(OutgoingEventDraft(.subscriptionExpired, subscription: now))
        case .subscribed where before.status == .inGracePeriod || before.status == .inBillingRetryPeriod:
            drafts.append(OutgoingEventDraft(.subscriptionRecovered, subscription: now))
        default:
            break
        }
        return drafts
    }

    /// What the renewal info changed: automatic renewal turned off or on, a product chosen for
    /// the next renewal.
    private func renewalChanges(_ now: ReportedSubscription, before: ReportedSubscription) -> [OutgoingEventDraft] {
        guard now.status == .subscribed || now.status == .inGracePeriod || now.status == .inBillingRetryPeriod else { return [] }
        var drafts: [OutgoingEventDraft] = []
        // A subscription whose renewal info the ledger had not seen renews, as a new one does.
        if let renews = now.willAutoRenew, renews != (before.willAutoRenew ?? true) {
            drafts.append(OutgoingEventDraft(renews ? .subscriptionRenewalEnabled : .subscriptionRenewalDisabled, subscription: now))
        }
        if now.transactionID == before.transactionID, now.renewsToProductID != before.renewsToProductID {
            let from = before.renewsToProductID ?? before.productID
            let to = now.renewsToProductID ?? now.productID
            if from != to {
                drafts.append(OutgoingEventDraft(change(from: from, to: to), subscription: now, previousProductID: from,
                                                 effective: "next_renewal"))
            }
        }
        return drafts
    }

    /// The kind of a change of product by the two products' levels; a crossgrade when the levels
    /// are equal or the catalog does not know both.
    private func change(from: String, to: String) -> OutgoingEventType {
        guard let old = level(from), let new = level(to), old != new else { return .subscriptionCrossgraded }
        return new < old ? .subscriptionUpgraded : .subscriptionDowngraded
    }
}
