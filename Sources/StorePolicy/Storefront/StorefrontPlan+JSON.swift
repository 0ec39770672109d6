import StoreCore

// The plan's JSON, written directly: the text its `Codable` conformance gives under
// `JSONEncoder`'s `.sortedKeys`, members in that order.

extension StorefrontPlan: JSONWritable {
    /// Writes the plan as `storerules storefront --json` prints it.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("customer_id", customerID)
            object.member("customer_known", customerKnown)
            object.member("decisions", decisions)
            object.member("placement", placement)
            object.member("policy_version", policyVersion)
            object.member("products", products)
            object.member("show_merchandising", showMerchandising)
            object.member("status_line", statusLine)
            object.member("store_buttons", storeButtons)
            object.member("subscription_stores", subscriptionStores)
        }
    }
}

extension StorefrontPlan.Product: JSONWritable {
    /// Writes the product's members.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("description", description)
            object.member("display_name", displayName)
            object.member("display_price", displayPrice)
            object.member("icon", icon)
            object.member("id", id)
            object.member("owned", owned)
            object.member("style", style)
            object.member("type", type)
        }
    }
}

extension StorefrontPlan.SubscriptionStore: JSONWritable {
    /// Writes the subscription store's members.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("buttons", buttons)
            object.member("control_style", controlStyle)
            object.member("current_product_id", currentProductID)
            object.member("group_id", groupID)
            object.member("group_name", groupName)
            object.member("plans", plans)
            object.member("visible_relationships", visibleRelationships)
            if let winBack { object.member("win_back", winBack) }
        }
    }
}

extension StorefrontPlan.WinBackCard: JSONWritable {
    /// Writes the card's members.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("display_name", displayName)
            object.member("display_price", displayPrice)
            object.member("offer", offer)
            object.member("offer_id", offerID)
            object.member("period", period)
            object.member("product_id", productID)
        }
    }
}

extension StorefrontPlan.Plan: JSONWritable {
    /// Writes the plan's members.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("button_label", buttonLabel)
            object.member("display_name", displayName)
            object.member("display_price", displayPrice)
            object.member("icon", icon)
            object.member("id", id)
            object.member("level", level)
            object.member("offer", offer)
            object.member("period", period)
            object.member("relationship", relationship)
        }
    }
}

extension StorefrontPlan.Button: JSONWritable {
    /// Writes the button's members.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("is_shown", isShown)
            object.member("kind", kind)
            object.member("visibility", visibility)
        }
    }
}

extension StorefrontPlan.DecisionNote: JSONWritable {
    /// Writes the note's members.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.writeObject { object in
            object.member("hook", hook)
            object.member("outcome", outcome)
            object.member("reason", reason)
            object.member("source", source)
            object.member("subject", subject)
        }
    }
}

extension ProductViewStyle: JSONWritable {}
extension StoreButtonKind: JSONWritable {}
extension StoreButtonVisibility: JSONWritable {}
extension SubscriptionRelationship: JSONWritable {}
