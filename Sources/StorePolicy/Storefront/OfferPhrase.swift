/// Offer and period wording for storefront plans: "1 month free", "3 months at $2.49/month",
/// "$1.99 for 2 months".
enum OfferPhrase {
    /// "month", "3 months", "week".
    static func period(_ period: PolicyProduct.Period) -> String {
        period.value == 1 ? period.unit : "\(period.value) \(period.unit)s"
    }

    /// A count of units: "1 month", "3 months".
    static func span(_ count: Int, _ unit: String) -> String {
        count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
    }

    /// The offer in words.
    static func describe(_ offer: PolicyProduct.Offer) -> String {
        switch offer.paymentMode {
        case "free_trial":
            return span(offer.period.value * offer.periodCount, offer.period.unit) + " free"
        case "pay_as_you_go":
            let count = offer.period.value * offer.periodCount
            return span(count, offer.period.unit) + " at \(offer.displayPrice)/\(period(offer.period))"
        default:
            return "\(offer.displayPrice) for " + span(offer.period.value * offer.periodCount, offer.period.unit)
        }
    }
}
