import Foundation
import StoreCore
import Synchronization

extension PolicyEngine {
    /// The storefront plan for the customer in `context` at `placement`, decided by the
    /// policy's hooks over the engine's catalog.
    ///
    /// - Store products (everything but auto-renewable subscriptions) are ordered large,
    ///   regular, then compact (`product_style`), then by price and id.
    /// - A group's plans are filtered by `visible_relationships` only for a customer with an
    ///   active subscription in the group (subscribed, grace period or billing retry); others
    ///   see every plan, as StoreKit's `SubscriptionStoreView` shows them.
    /// - The introductory offer shows when the customer is eligible (no subscription in the
    ///   group yet, or `intro_eligible`); a lapsed subscriber sees the first promotional offer,
    ///   and a card for the win-back offer `winback_offer` picks among those they may redeem.
    /// - A button shows when the policy makes it `visible`, or `automatic` where StoreKit
    ///   shows it by default: cancellation, and policies in a subscription store.
    public func storefrontPlan(_ context: PolicyContext, placement: String) -> StorefrontPlan {
        withSharedContext(context) { instance in
            // The layout and version of the instance whose hooks decide: one policy, one catalog.
            var plan = plan(context, placement: placement, layout: instance?.storefrontLayout ?? storefrontLayout,
                            version: instance?.version ?? version)
            if let reads = instance?.experiments.takeReads(), !reads.isEmpty {
                plan.exposures = ExperimentRead.exposures(reads, context: context, policyVersion: plan.policyVersion, placement: placement)
            }
            return plan
        }
    }

    private func plan(_ context: PolicyContext, placement: String, layout storefrontLayout: StorefrontLayout,
                      version: String) -> StorefrontPlan {
        let notes = DecisionNotes(capacity: 2 + 2 * storefrontLayout.storeProducts.count
                                  + storefrontLayout.groups.reduce(0) { $0 + 3 + $1.plans.count })
        let merchandising = showMerchandising(context, placement: placement)
        notes.record(.showMerchandising, placement, merchandising, merchandising.value ? "shown" : "hidden")

        let owned = Set(context.customer.entitlements)
        var products: [StorefrontPlan.Product] = []
        for product in storefrontLayout.storeProducts {
            let style = productStyle(context, productID: product.id)
            notes.record(.productStyle, product.id, style, style.value.rawValue)
            let icon = planIcon(context, productID: product.id)
            if icon.value != nil || icon.failure != nil { notes.record(.planIcon, product.id, icon, icon.value ?? "none") }
            products.append(.init(id: product.id, type: product.type, displayName: product.displayName,
                                  description: product.description, displayPrice: product.displayPrice,
                                  style: style.value, icon: icon.value,
                                  owned: product.type != "consumable" && owned.contains(product.id)))
        }
        products.sort { displayOrder($0, ranks: storefrontLayout.priceRanks) < displayOrder($1, ranks: storefrontLayout.priceRanks) }

        return StorefrontPlan(
            placement: placement, customerID: context.customer.id, policyVersion: version,
            showMerchandising: merchandising.value, statusLine: Self.statusLine(context),
            products: products, storeButtons: buttons(context, view: .store, notes: notes),
            subscriptionStores: storefrontLayout.groups.map { subscriptionStore(context, group: $0, catalog: storefrontLayout.catalog, notes: notes) },
            decisions: notes.all)
    }

    /// Where a product goes in the store: large, regular, then compact, then by price and id.
    private func displayOrder(_ product: StorefrontPlan.Product, ranks: [String: Int]) -> (Int, Int) {
        let prominence = switch product.style {
        case .large: 0
        case .regular: 1
        case .compact: 2
        }
        return (prominence, ranks[product.id] ?? 0)
    }

    private func subscriptionStore(_ context: PolicyContext, group layout: StorefrontLayout.Group, catalog: PolicyCatalog,
                                   notes: DecisionNotes) -> StorefrontPlan.SubscriptionStore {
        let group = layout.group
        let snapshot = context.customer.subscriptions[group.id]
        let active = snapshot.map { $0.state.isEntitled || $0.state == .inBillingRetry } ?? false
        let relationships = visibleRelationships(context, groupID: group.id)
        notes.record(.visibleRelationships, group.id, relationships, relationships.value.map(\.rawValue).joined(separator: ", "))
        let current = active ? snapshot?.productID : nil
        let currentLevel = current.flatMap { catalog.products[$0]?.subscription?.groupLevel }
        let introEligible = snapshot.map(\.introEligible) ?? true
        let lapsed = snapshot != nil && !active

        var plans: [StorefrontPlan.Plan] = []
        plans.reserveCapacity(layout.plans.count)
        for plan in layout.plans {
            let productID = plan.product.id
            var relationship: SubscriptionRelationship?
            if let current, let currentLevel {
                if productID == current { relationship = .current }
                else if plan.subscription.groupLevel < currentLevel { relationship = .upgrade }
                else if plan.subscription.groupLevel > currentLevel { relationship = .downgrade }
                else { relationship = .crossgrade }
            }
            if let relationship, !relationships.value.contains(.all), !relationships.value.contains(relationship) { continue }
            let icon = planIcon(context, productID: productID)
            notes.record(.planIcon, productID, icon, icon.value ?? "none")
            var offer: String?
            if relationship == nil, introEligible, let intro = plan.introductoryOffer {
                offer = intro
            } else if lapsed, let promotional = plan.promotionalOffer {
                offer = promotional
            }
            plans.append(.init(id: productID, displayName: plan.product.displayName, displayPrice: plan.product.displayPrice,
                               period: plan.period, level: plan.subscription.groupLevel,
                               relationship: relationship?.rawValue ?? "new", icon: icon.value, offer: offer,
                               buttonLabel: Self.buttonLabel(relationship, offer: offer)))
        }
        return .init(groupID: group.id, groupName: group.name, visibleRelationships: relationships.value,
                     currentProductID: current, controlStyle: plans.count > 1 ? "picker" : "buttons", plans: plans,
                     buttons: buttons(context, view: .subscriptionStore, notes: notes),
                     winBack: lapsed ? winBackCard(context, group: group, catalog: catalog, snapshot: snapshot, notes: notes) : nil)
    }

    /// The win-back card of a lapsed subscriber: `winback_offer` is asked about each plan with
    /// offers the customer may redeem, the lapsed plan first, and the first offer chosen makes
    /// the card.
    private func winBackCard(_ context: PolicyContext, group: PolicyCatalog.Group, catalog: PolicyCatalog,
                             snapshot: SubscriptionSnapshot?, notes: DecisionNotes) -> StorefrontPlan.WinBackCard? {
        guard let snapshot, !snapshot.winBackOfferIDs.isEmpty else { return nil }
        let ordered = group.products.filter { $0 == snapshot.productID } + group.products.filter { $0 != snapshot.productID }
        for productID in ordered {
            guard let product = catalog.products[productID], let info = product.subscription else { continue }
            let eligible = eligibleWinBackOfferIDs(context, productID: productID, in: catalog)
            guard !eligible.isEmpty else { continue }
            let decision = winBackOffer(context, productID: productID, offerIDs: eligible)
            notes.record(.winBackOffer, productID, decision, decision.value ?? "none")
            guard let offerID = decision.value, let offer = info.winBackOffers.first(where: { $0.id == offerID }) else { continue }
            return .init(productID: productID, displayName: product.displayName, offerID: offerID,
                         offer: OfferPhrase.describe(offer), displayPrice: product.displayPrice,
                         period: OfferPhrase.period(info.period))
        }
        return nil
    }

    private func buttons(_ context: PolicyContext, view: StoreViewKind, notes: DecisionNotes) -> [StorefrontPlan.Button] {
        let decision = storeButtons(context, view: view)
        let buttons = StoreButtonKind.allCases.map { kind -> StorefrontPlan.Button in
            let visibility = decision.value[kind] ?? .automatic
            return .init(kind: kind, visibility: visibility, isShown: Self.isShown(kind, visibility, view: view))
        }
        let shown = buttons.filter(\.isShown).map(\.kind.rawValue)
        notes.record(.storeButtons, view.rawValue, decision, shown.isEmpty ? "none shown" : shown.joined(separator: ", "))
        return buttons
    }

    /// Whether StoreKit shows a button: `visible` always, `hidden` never, `automatic` for
    /// cancellation, and for policies in a subscription store.
    static func isShown(_ kind: StoreButtonKind, _ visibility: StoreButtonVisibility, view: StoreViewKind) -> Bool {
        switch visibility {
        case .visible: return true
        case .hidden: return false
        case .automatic: return kind == .cancellation || (kind == .policies && view == .subscriptionStore)
        }
    }

    /// "Upgrade", "Downgrade", "Switch", "Current plan", "Try 1 month free" or "Subscribe".
    static func buttonLabel(_ relationship: SubscriptionRelationship?, offer: String?) -> String {
        switch relationship {
        case .upgrade: return "Upgrade"
        case .downgrade: return "Downgrade"
        case .crossgrade: return "Switch"
        case .current: return "Current plan"
        case .all, nil:
            if let offer, offer.hasSuffix(" free") { return "Try " + offer }
            return "Subscribe"
        }
    }

    /// The subscriber's status line, dates in the context's locale: "Renews Dec 29, 2026",
    /// "Expires …", "Billing problem — update payment", "Expired …", "Refunded".
    static func statusLine(_ context: PolicyContext) -> String? {
        let subscriptions = context.customer.subscriptions.values.sorted { $0.productID < $1.productID }
        guard let subscription = subscriptions.first(where: { $0.state != .expired && $0.state != .revoked }) ?? subscriptions.first else {
            return nil
        }
        let date = subscription.expirationDate.map { StatusDateStyle.text(of: $0, locale: context.locale) }
        switch subscription.state {
        case .subscribed:
            guard let date else { return "Subscribed" }
            return subscription.willAutoRenew ? "Renews \(date)" : "Expires \(date)"
        case .inBillingRetry, .inGracePeriod:
            return "Billing problem — update payment"
        case .expired:
            return date.map { "Expired \($0)" } ?? "Expired"
        case .revoked:
            return "Refunded"
        }
    }
}

/// A status line's date in a locale: abbreviated, in UTC, so it depends only on the day. Each
/// locale's style is made once, and each day's text once per locale; both caches are bounded.
enum StatusDateStyle {
    private struct Day: Hashable {
        let locale: String
        let day: Int64
    }

    private static let styles = Mutex<[String: Date.FormatStyle]>([:])
    private static let texts = Mutex<[Day: String]>([:])

    /// "Dec 29, 2026" for `date` in `locale`.
    static func text(of date: Date, locale: String) -> String {
        let key = Day(locale: locale, day: Int64((date.timeIntervalSince1970 / 86_400).rounded(.down)))
        if let text = texts.withLock({ $0[key] }) { return text }
        let text = date.formatted(style(for: locale))
        texts.withLock { texts in
            // Plans ask about the days near now; a cache that fills up starts afresh.
            if texts.count >= 4_096 { texts.removeAll() }
            texts[key] = text
        }
        return text
    }

    /// The style of `locale`'s dates: abbreviated, without a time, in UTC.
    private static func style(for locale: String) -> Date.FormatStyle {
        if let style = styles.withLock({ $0[locale] }) { return style }
        let style = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: Locale(identifier: locale),
                                     timeZone: TimeZone(identifier: "UTC") ?? .gmt)
        styles.withLock { styles in
            // A policy's locales are few; a flood of made-up ones starts the cache afresh.
            if styles.count >= 64 { styles.removeAll() }
            styles[locale] = style
        }
        return style
    }
}

/// The hook decisions behind a storefront plan, in the order they were made.
final class DecisionNotes {
    private(set) var all: [StorefrontPlan.DecisionNote] = []

    /// Notes with room for `capacity` decisions.
    init(capacity: Int) {
        all.reserveCapacity(capacity)
    }

    func record<Value>(_ hook: PolicyHook, _ subject: String, _ decision: Decision<Value>, _ outcome: String) {
        let source: String
        switch decision.source {
        case .policy: source = "policy"
        case .defaultForMissingHook: source = "default"
        case .fallback: source = "fallback"
        }
        all.append(.init(hook: hook.name, subject: subject, outcome: outcome, source: source, reason: decision.failure?.description))
    }
}
