import StoreCore

/// Renders a ``StorefrontPlan`` as one self-contained HTML page: the storefront the way a
/// customer would see it, and beside it the hook decisions that shaped each part.
public enum StorefrontHTML {
    /// The page for `plan`, titled `title`.
    public static func render(_ plan: StorefrontPlan, title: String) -> String {
        var body = ""
        body += "<header><h1>\(escape(title))</h1><p class=\"meta\">customer <b>\(escape(plan.customerID.isEmpty ? "anonymous" : plan.customerID))</b>"
        body += " · placement <b>\(escape(plan.placement))</b> · policy <code>\(escape(plan.policyVersion))</code></p></header>"
        body += "<main><section class=\"device\" aria-label=\"storefront\">"
        if let status = plan.statusLine {
            body += "<div class=\"status\" data-testid=\"status\">\(escape(status))</div>"
        }
        if plan.showMerchandising {
            let offer = plan.subscriptionStores.first.map { store in
                store.groupName + (store.plans.compactMap(\.offer).first.map { ": \($0)" } ?? "")
            } ?? "Offers"
            body += "<div class=\"banner\" data-testid=\"merchandising\">\(escape(offer))</div>"
        } else {
            body += "<div class=\"banner hidden-banner\" data-testid=\"merchandising\">No offer card at this placement</div>"
        }
        for store in plan.subscriptionStores {
            body += subscriptionStore(store)
        }
        if !plan.products.isEmpty {
            body += "<h2>Store</h2><div class=\"products\">"
            for product in plan.products {
                body += "<article class=\"product \(product.style.rawValue)\" data-product=\"\(escape(product.id))\">"
                body += icon(product.icon)
                body += "<div class=\"text\"><h3>\(escape(product.displayName))</h3><p>\(escape(product.description))</p></div>"
                body += product.owned ? "<span class=\"price owned\">Owned</span>" : "<span class=\"price\">\(escape(product.displayPrice))</span>"
                body += "</article>"
            }
            body += "</div>"
            body += buttons(plan.storeButtons)
        }
        body += "</section><aside aria-label=\"why\"><h2>Why</h2><table><thead><tr><th>hook</th><th>about</th><th>decided</th><th>by</th></tr></thead><tbody>"
        for note in plan.decisions {
            body += "<tr class=\"\(note.source)\"><td><code>\(escape(note.hook))</code></td><td>\(escape(note.subject))</td>"
            body += "<td>\(escape(note.outcome))</td><td>\(escape(note.source))"
            if let reason = note.reason { body += "<div class=\"reason\">\(escape(reason))</div>" }
            body += "</td></tr>"
        }
        body += "</tbody></table></aside></main>"
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>\(style)</style></head>
        <body>\(body)</body></html>
        """
    }

    private static func subscriptionStore(_ store: StorefrontPlan.SubscriptionStore) -> String {
        var html = "<h2>\(escape(store.groupName))</h2>"
        if let card = store.winBack {
            html += "<article class=\"win-back\" data-testid=\"win-back\" data-offer=\"\(escape(card.offerID))\">"
            html += "<div class=\"text\"><h3>Come back to \(escape(card.displayName))</h3><p class=\"offer\">\(escape(card.offer))</p>"
            html += "<p>then \(escape(card.displayPrice)) / \(escape(card.period))</p></div><button>Redeem offer</button></article>"
        }
        html += "<div class=\"plans \(escape(store.controlStyle))\" data-group=\"\(escape(store.groupID))\">"
        if store.plans.isEmpty {
            html += "<p class=\"empty\">No plans to offer (\(escape(store.visibleRelationships.map(\.rawValue).joined(separator: ", "))))</p>"
        }
        for plan in store.plans {
            html += "<article class=\"plan \(escape(plan.relationship))\" data-plan=\"\(escape(plan.id))\">"
            html += icon(plan.icon)
            html += "<div class=\"text\"><h3>\(escape(plan.displayName))</h3><p>\(escape(plan.displayPrice)) / \(escape(plan.period))</p>"
            if let offer = plan.offer { html += "<p class=\"offer\">\(escape(offer))</p>" }
            html += "</div><button>\(escape(plan.buttonLabel))</button></article>"
        }
        html += "</div>" + buttons(store.buttons)
        return html
    }

    /// An icon as a browser can show it: SF Symbol names have no glyphs outside Apple's
    /// systems, so the page draws a badge with the name's initial and prints the name.
    private static func icon(_ name: String?) -> String {
        guard let name else { return "<span class=\"icon none\"></span>" }
        let initial = name.first.map { String($0).uppercased() } ?? "?"
        return "<span class=\"icon\" title=\"\(escape(name))\"><b>\(escape(initial))</b><small>\(escape(name))</small></span>"
    }

    private static func buttons(_ buttons: [StorefrontPlan.Button]) -> String {
        let shown = buttons.filter(\.isShown)
        guard !shown.isEmpty else { return "" }
        let labels: [StoreButtonKind: String] = [.cancellation: "Close", .restorePurchases: "Restore Purchases",
                                                 .redeemCode: "Redeem Code", .signIn: "Sign In", .policies: "Terms · Privacy"]
        return "<nav class=\"buttons\">" + shown.map { "<a data-button=\"\($0.kind.rawValue)\">\(escape(labels[$0.kind] ?? $0.kind.rawValue))</a>" }.joined() + "</nav>"
    }

    static func escape(_ text: String) -> String {
        HTMLText.escape(text)
    }

    private static let style = """
    body{font-family:-apple-system,system-ui,"Segoe UI",Roboto,sans-serif;margin:0;background:#f2f2f7;color:#1c1c1e}
    header{padding:16px 24px;background:#fff;border-bottom:1px solid #d1d1d6}h1{margin:0;font-size:20px}
    .meta{margin:4px 0 0;color:#636366;font-size:13px}main{display:flex;gap:24px;padding:24px;align-items:flex-start}
    .device{width:390px;min-height:600px;background:#fff;border-radius:32px;padding:20px;box-shadow:0 8px 24px rgba(0,0,0,.12)}
    .status{background:#e5f0ff;color:#0a4db3;border-radius:10px;padding:8px 12px;font-size:14px;margin-bottom:10px}
    .banner{background:linear-gradient(135deg,#34c759,#0a84ff);color:#fff;border-radius:14px;padding:14px;font-weight:600}
    .hidden-banner{background:#e5e5ea;color:#8e8e93;font-weight:400}
    h2{font-size:17px;margin:18px 0 8px}h3{margin:0;font-size:15px}.text{flex:1}.text p{margin:2px 0 0;color:#636366;font-size:13px}
    .product,.plan{display:flex;align-items:center;gap:12px;border:1px solid #e5e5ea;border-radius:14px;padding:10px;margin-bottom:8px}
    .product.large{padding:18px;border:2px solid #0a84ff;background:#f0f7ff}.product.compact{padding:6px 10px}
    .win-back{display:flex;align-items:center;gap:12px;border:2px solid #ff9f0a;background:#fff8ec;border-radius:14px;padding:12px;margin-bottom:10px}
    .plan.current{border-color:#34c759;background:#f0fbf3}.offer{color:#248a3d!important;font-weight:600}
    .icon{width:52px;text-align:center}.icon b{display:inline-block;width:34px;height:34px;line-height:34px;border-radius:50%;background:#0a84ff;color:#fff;font-size:17px}
    .icon small{display:block;font-size:9px;color:#8e8e93;margin-top:2px}
    .price{background:#0a84ff;color:#fff;border-radius:14px;padding:4px 12px;font-size:14px}.owned{background:#8e8e93}
    button{background:#0a84ff;color:#fff;border:0;border-radius:10px;padding:8px 12px;font-size:13px}
    .buttons{display:flex;flex-wrap:wrap;gap:12px;justify-content:center;margin:8px 0 4px}.buttons a{color:#0a84ff;font-size:13px}
    .empty{color:#8e8e93;font-size:13px}aside{flex:1;background:#fff;border-radius:14px;padding:16px;max-width:640px}
    table{border-collapse:collapse;width:100%;font-size:13px}td,th{border-bottom:1px solid #e5e5ea;padding:6px;text-align:left;vertical-align:top}
    tr.fallback td{background:#fff4e5}tr.default td{color:#636366}.reason{color:#c93400;font-size:12px}
    """
}
