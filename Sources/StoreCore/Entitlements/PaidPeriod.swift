import Foundation

/// A subscription period a customer may have paid for, as the ledger and the local store both
/// keep it, and the span of it that counts as paid.
public struct PaidPeriod: Sendable, Hashable {
    /// The subscription's original transaction id.
    public var originalID: String
    /// When the period was bought.
    public var purchaseDate: Date
    /// When it ends.
    public var expirationDate: Date
    /// When it was refunded, if it was.
    public var revocationDate: Date?
    /// What the customer paid, in milli-units; `nil` when the payload does not say.
    public var price: Int64?

    /// Describes a period.
    public init(originalID: String, purchaseDate: Date, expirationDate: Date, revocationDate: Date?, price: Int64?) {
        self.originalID = originalID
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
        self.revocationDate = revocationDate
        self.price = price
    }

    /// The spans of `periods` the customer paid for, in purchase order: each period with a
    /// price above zero (a free trial is not paid; one without a price counts as paid), whole
    /// from the moment it is bought, cut short only by a refund or by the next period of the
    /// same subscription (an upgrade starts before the period it replaces ends). Empty spans
    /// are left out.
    public static func paidSpans(of periods: [PaidPeriod]) -> [Range<Date>] {
        let ordered = periods.sorted { $0.purchaseDate < $1.purchaseDate }
        var spans: [Range<Date>] = []
        for (index, period) in ordered.enumerated() where (period.price ?? 1) > 0 {
            var end = period.expirationDate
            if let revocation = period.revocationDate { end = min(end, revocation) }
            if let next = ordered.dropFirst(index + 1).first(where: { $0.originalID == period.originalID }) {
                end = min(end, next.purchaseDate)
            }
            if end > period.purchaseDate { spans.append(period.purchaseDate..<end) }
        }
        return spans
    }
}
