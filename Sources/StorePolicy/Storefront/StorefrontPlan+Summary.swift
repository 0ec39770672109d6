extension StorefrontPlan {
    /// The plan as a few readable lines: merchandising, status, each group's plans with icons
    /// and offers, the store's products with their styles, the buttons shown, and each hook
    /// whose answer was set aside for its fallback, with the reason.
    public var summary: String {
        var lines = ["Storefront for \(customerID.isEmpty ? "an anonymous customer" : customerID) at \"\(placement)\" (policy \(policyVersion))"]
        lines.append("  merchandising: \(showMerchandising ? "shown" : "hidden")")
        if let statusLine { lines.append("  status: \(statusLine)") }
        for store in subscriptionStores {
            let count = store.plans.isEmpty ? "no plans offered" : "\(store.plans.count) plan(s)"
            lines.append("  \(store.groupName): \(count) [\(store.visibleRelationships.map(\.rawValue).joined(separator: ", "))]")
            if let card = store.winBack {
                lines.append("    win back: \(card.displayName) — \(card.offer), then \(card.displayPrice)/\(card.period) [Redeem \(card.offerID)]")
            }
            for plan in store.plans {
                var line = "    \(plan.displayName) \(plan.displayPrice)/\(plan.period) (\(plan.relationship))"
                if let icon = plan.icon { line += " icon \(icon)" }
                if let offer = plan.offer { line += " — \(offer)" }
                lines.append(line + " [\(plan.buttonLabel)]")
            }
        }
        for product in products {
            lines.append("  \(product.displayName) \(product.owned ? "owned" : product.displayPrice) (\(product.style.rawValue))"
                         + (product.icon.map { " icon \($0)" } ?? ""))
        }
        let shown = storeButtons.filter(\.isShown).map(\.kind.rawValue)
        if !shown.isEmpty { lines.append("  buttons: \(shown.joined(separator: ", "))") }
        for note in decisions where note.source == "fallback" {
            lines.append("  fallback: \(note.hook) (\(note.subject)) decided \(note.outcome): \(note.reason ?? "")")
        }
        return lines.joined(separator: "\n")
    }
}
