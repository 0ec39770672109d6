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

    /// What a change reports: its events, and the state to report as the customer's now.
    struct Classification {
        /// The events, in the order they are numbered.
        var events: [OutgoingEventDraft]
        /// The state the events carry and the next change is compared with.
        var reported: ReportedCustomerState
    }

    /// The events of a write that settled `facts`: each transaction's own events, then each
    /// subscription's, then entitlements. A grant of a subscription's transaction goes on the
    /// event of the period it opened, or, when that was reported before, on a `purchase.granted`.
    ///
    /// A subscription whose latest transaction moved back to an earlier period (Apple marked the
    /// one reported upgraded before its successor arrived) keeps its reported entry until the
    /// successor comes, with the entitlement it gave, so the upgrade is reported as one.
    func classify(settling facts: [TransactionIngestResult]) -> Classification {
        var drafts: [OutgoingEventDraft] = []
        var subscriptionGrants: [String: (StoredTransaction, [Grant])] = [:]
        for fact in facts {
            let transaction = fact.transaction
            switch fact.outcome {
            case .granted(let grants) where transaction.productType == .autoRenewableSubscription:
                subscriptionGrants[transaction.id] = (transaction, grants)
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
        var reported = current
        for (index, subscription) in current.subscriptions.enumerated() {
            let before = previous.subscription(subscription.originalTransactionID)
            if let before, subscription.transactionID != before.transactionID,
               let end = subscription.expiresDate, let earlier = before.expiresDate, end < earlier {
                reported.subscriptions[index] = before
                if before.status.givesService, !reported.entitlements.contains(before.productID) {
                    reported.entitlements = (reported.entitlements + [before.productID]).sorted()
                }
                continue
            }
            var events = events(of: subscription, before: before)
            if let period = events.firstIndex(where: \.opensPeriod),
               let (transaction, grants) = subscriptionGrants.removeValue(forKey: subscription.transactionID) {
                events[period].transaction = transaction
                events[period].grants = grants
            }
            drafts += events
        }
        for (transaction, grants) in subscriptionGrants.values.sorted(by: { $0.0.purchaseDate < $1.0.purchaseDate }) {
            drafts.append(OutgoingEventDraft(.purchaseGranted, transaction: transaction, grants: grants))
        }
        if previous.entitlements != reported.entitlements {
            drafts.append(OutgoingEventDraft(.entitlementsChanged, previousEntitlements: previous.entitlements))
        }
        return Classification(events: drafts, reported: reported)
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

    /// A new transaction in the chain: a renewal (on time, or late after the clock lapsed a
    /// subscription that was to renew), a recovery, a change of product, or a lapsed
    /// subscription bought again.
    private func newPeriod(_ now: ReportedSubscription, before: ReportedSubscription) -> [OutgoingEventDraft] {
        guard now.status.givesService else { return sameTransaction(now, before: before) }
        let wasRetrying = before.status == .inGracePeriod || before.status == .inBillingRetryPeriod
        let lapsedWhileRenewing = before.status == .expired && before.willAutoRenew != false
        if !before.status.givesService, !wasRetrying, !lapsedWhileRenewing {
            return [OutgoingEventDraft(.subscriptionStarted, subscription: now)]
        }
        if now.productID != before.productID, before.renewsToProductID != now.productID {
            return [OutgoingEventDraft(change(from: before.productID, to: now.productID), subscription: now,
                                       previousProductID: before.productID, effective: "now")]
        }
        let previousProductID = now.productID == before.productID ? nil : before.productID
        return [OutgoingEventDraft(wasRetrying ? .subscriptionRecovered : .subscriptionRenewed, subscription: now,
                                   previousProductID: previousProductID)]
    }

    /// The state the clock or the renewal info changed, and an extension of the period.
    private func sameTransaction(_ now: ReportedSubscription, before: ReportedSubscription) -> [OutgoingEventDraft] {
        var drafts: [OutgoingEventDraft] = []
        if now.transactionID == before.transactionID, let end = now.expiresDate, let earlier = before.expiresDate, end > earlier,
           now.status != .revoked {
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
        default:
            break
        }
        return drafts
    }

    /// What the renewal info changed while the subscription runs or is retried: automatic
    /// renewal turned off or on, a product chosen for the next renewal. A pending change
    /// withdrawn reports nothing; the subscription renews as it was.
    private func renewalChanges(_ now: ReportedSubscription, before: ReportedSubscription) -> [OutgoingEventDraft] {
        let running: Set<Product.SubscriptionInfo.RenewalState> = [.subscribed, .inGracePeriod, .inBillingRetryPeriod]
        guard running.contains(now.status), running.contains(before.status) else { return [] }
        var drafts: [OutgoingEventDraft] = []
        // A subscription whose renewal info the ledger had not seen renews, as a new one does.
        if let renews = now.willAutoRenew, renews != (before.willAutoRenew ?? true) {
            drafts.append(OutgoingEventDraft(renews ? .subscriptionRenewalEnabled : .subscriptionRenewalDisabled, subscription: now))
        }
        if now.transactionID == before.transactionID, let to = now.renewsToProductID, to != before.renewsToProductID {
            drafts.append(OutgoingEventDraft(change(from: now.productID, to: to), subscription: now, previousProductID: now.productID,
                                             effective: "next_renewal"))
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

extension OutgoingEventDraft {
    /// Whether the event reports a period the subscription's latest transaction opened.
    var opensPeriod: Bool {
        switch type {
        case .subscriptionStarted, .subscriptionRenewed, .subscriptionRecovered: true
        case .subscriptionUpgraded, .subscriptionDowngraded, .subscriptionCrossgraded: effective == "now"
        default: false
        }
    }
}
