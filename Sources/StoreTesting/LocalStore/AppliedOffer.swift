import Foundation
import StoreCore

/// A subscription offer as the store bills it: which offer, what it charges, and how many
/// billing spans it lasts.
///
/// A pay-as-you-go offer bills each of its periods on its own; a free trial or a pay-up-front
/// offer covers all its periods in one span.
struct AppliedOffer: Hashable {
    let type: OfferType
    let identifier: String?
    let discountType: OfferDiscountType
    /// The length of one billing span.
    let spanPeriod: SubscriptionPeriod
    /// How many spans the offer lasts.
    let spans: Int
    /// The price of one span, in milli-units of the currency.
    let priceMilliunits: Int64

    init(_ offer: Product.SubscriptionOffer, type: OfferType, identifier: String?) {
        self.type = type
        self.identifier = identifier
        switch offer.paymentMode {
        case .freeTrial:
            discountType = .freeTrial
        case .payAsYouGo:
            discountType = .payAsYouGo
        case .payUpFront:
            discountType = .payUpFront
        }
        if offer.paymentMode == .payAsYouGo {
            spanPeriod = offer.period
            spans = max(1, offer.periodCount)
        } else {
            spanPeriod = SubscriptionPeriod(value: offer.period.value * max(1, offer.periodCount), unit: offer.period.unit)
                ?? offer.period
            spans = 1
        }
        priceMilliunits = offer.paymentMode == .freeTrial ? 0 : Milliunits.of(offer.price)
    }

    init(type: OfferType, identifier: String?, discountType: OfferDiscountType, spanPeriod: SubscriptionPeriod,
         spans: Int, priceMilliunits: Int64) {
        self.type = type
        self.identifier = identifier
        self.discountType = discountType
        self.spanPeriod = spanPeriod
        self.spans = spans
        self.priceMilliunits = priceMilliunits
    }

    /// What is left of the offer after one span is billed, or `nil` when nothing is.
    var afterOneSpan: AppliedOffer? {
        guard spans > 1 else { return nil }
        return AppliedOffer(type: type, identifier: identifier, discountType: discountType, spanPeriod: spanPeriod,
                            spans: spans - 1, priceMilliunits: priceMilliunits)
    }
}

/// Prices as App Store payloads write them: integer thousandths of the currency unit.
enum Milliunits {
    /// `price` in milli-units, rounded to the nearest.
    static func of(_ price: Decimal) -> Int64 {
        var scaled = price * 1000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        return NSDecimalNumber(decimal: rounded).int64Value
    }
}
