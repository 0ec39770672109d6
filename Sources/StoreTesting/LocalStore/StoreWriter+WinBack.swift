import Foundation
import StoreCore

extension StoreWriter {
    // MARK: - Win-back offers

    /// The win-back offers the customer of `subscription` may redeem now, as identifiers: the
    /// offers of the lapsed product first, then those of the group's other products, each in
    /// catalog order.
    ///
    /// Only a lapsed subscription qualifies: expired, and the customer's own (a
    /// family member's shared copy, a billing grace period, billing retry and a refund do not).
    /// An offer follows StoreKit Testing's *Eligible* setting; when it or the settings carry App
    /// Store Connect's criteria, the customer must also have paid for enough months, have lapsed
    /// within the months allowed, and wait the months between offers before redeeming an offer
    /// again (an offer without a wait is redeemed once).
    func eligibleWinBackOfferIDs(for subscription: SubscriptionRecord) throws -> [String] {
        guard subscription.state == .expired, subscription.sharedFrom == nil else { return [] }
        let products = catalog.subscriptions(inGroup: subscription.groupID)
        let ordered = products.filter { $0.id == subscription.productID } + products.filter { $0.id != subscription.productID }
        var history: WinBackHistory?
        var eligible: [String] = []
        for product in ordered {
            for offer in product.subscription?.winBackOffers ?? [] {
                guard let id = offer.id, !eligible.contains(id) else { continue }
                let rules = (offer.winBackEligibility ?? Product.WinBackEligibility()).overridden(by: settings.winBackCriteria)
                guard rules.isEligible else { continue }
                if rules.hasAppStoreConnectCriteria {
                    let known = try history ?? winBackHistory(of: subscription)
                    history = known
                    guard known.allows(rules, offerID: id) else { continue }
                }
                eligible.append(id)
            }
        }
        return eligible
    }

    /// What App Store Connect's criteria look at: the months paid in the group, the months
    /// since the lapse, and the win-back offers redeemed.
    struct WinBackHistory {
        let paidMonths: Double
        let monthsSinceLapse: Double
        let redeemedOfferIDs: Set<String>

        func allows(_ rules: Product.WinBackEligibility, offerID: String) -> Bool {
            if let paid = rules.paidMonths, paidMonths < Double(paid) { return false }
            if let range = rules.monthsSinceLapse,
               monthsSinceLapse < Double(range.lowerBound) || monthsSinceLapse >= Double(range.upperBound + 1) {
                return false
            }
            guard redeemedOfferIDs.contains(offerID) else { return true }
            guard let wait = rules.monthsBetweenOffers else { return false }
            return monthsSinceLapse >= Double(wait)
        }
    }

    /// The history of `subscription`'s customer in its group: paid months as the ledger counts
    /// them (``StoreCore/PaidPeriod/paidSpans(of:)``), measured in store months.
    private func winBackHistory(of subscription: SubscriptionRecord) throws -> WinBackHistory {
        var periods: [PaidPeriod] = []
        var redeemed = Set<String>()
        for record in try transactions("WHERE customer_id = ? AND group_id = ? AND shared_from IS NULL",
                                       [subscription.customerID, subscription.groupID]) {
            let payload = try record.payload()
            if payload.offerType == .winBackOffer, let id = payload.offerIdentifier { redeemed.insert(id) }
            guard let end = record.expirationDate else { continue }
            periods.append(PaidPeriod(originalID: record.originalID, purchaseDate: record.purchaseDate, expirationDate: end,
                                      revocationDate: record.revocationDate, price: payload.price))
        }
        let paidMonths = PaidPeriod.paidSpans(of: periods).reduce(0) { $0 + timeline.months(from: $1.lowerBound, to: $1.upperBound) }
        return WinBackHistory(paidMonths: paidMonths,
                              monthsSinceLapse: timeline.months(from: subscription.expirationDate, to: now),
                              redeemedOfferIDs: redeemed)
    }

    /// Signs renewal info again for each lapsed subscription whose eligible win-back offers
    /// changed, and owes it to the app (the App Store sends no notification for this). Nothing
    /// to do when the catalog has no win-back offer.
    func refreshWinBackEligibility() throws {
        let groups = catalog.subscriptionGroups.filter(\.hasWinBackOffers)
        guard !groups.isEmpty else { return }
        for var subscription in try subscriptions(
            "WHERE shared_from IS NULL AND phase = 'expired' AND group_id IN (\(groups.map { _ in "?" }.joined(separator: ", ")))",
            groups.map(\.id)) {
            let current = try eligibleWinBackOfferIDs(for: subscription)
            let signed = try subscription.renewalInfoJWS.map {
                try CompactJWS(parsing: $0).decodePayload(as: JWSRenewalInfoDecodedPayload.self)
            }
            guard (signed?.eligibleWinBackOfferIds ?? []) != current else { continue }
            _ = try issueRenewalInfo(for: &subscription, at: now)
            try subscription.save(in: connection)
        }
    }

    /// ``refreshWinBackEligibility()`` when time can change eligibility: some win-back offer,
    /// under the settings, counts the months since a lapse or between redemptions. Under
    /// StoreKit Testing's rule alone, eligibility changes only with events that sign renewal
    /// info anyway, and with the settings, which refresh it themselves.
    func refreshWinBackEligibilityAsTimePasses() throws {
        let offers = catalog.subscriptionGroups.flatMap(\.subscriptions).compactMap(\.subscription).flatMap(\.winBackOffers)
        let timed = offers.contains { offer in
            let rules = (offer.winBackEligibility ?? Product.WinBackEligibility()).overridden(by: settings.winBackCriteria)
            return rules.monthsSinceLapse != nil || rules.monthsBetweenOffers != nil
        }
        guard timed else { return }
        try refreshWinBackEligibility()
    }
}

extension SubscriptionGroup {
    /// Whether a subscription of the group has a win-back offer.
    var hasWinBackOffers: Bool { subscriptions.contains { !($0.subscription?.winBackOffers.isEmpty ?? true) } }
}

extension Catalog {
    /// Whether a subscription of the catalog has a win-back offer.
    var hasWinBackOffers: Bool { subscriptionGroups.contains(where: \.hasWinBackOffers) }
}
