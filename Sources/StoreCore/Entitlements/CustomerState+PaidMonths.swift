import Foundation

extension CustomerState {
    /// How many months of service the customer paid for in the subscription group `groupID`:
    /// the paid spans of their own periods (``PaidPeriod/paidSpans(of:)``), counted in calendar
    /// months with the rest of a month as a fraction of 30 days. It does not depend on the
    /// state's ``date``: a period counts in full as soon as it is bought.
    public func paidMonths(inGroup groupID: String) -> Double {
        let periods = transactions.compactMap { transaction -> PaidPeriod? in
            guard transaction.subscriptionGroupID == groupID, transaction.ownershipType != .familyShared,
                  let expiration = transaction.expirationDate else { return nil }
            return PaidPeriod(originalID: transaction.originalID, purchaseDate: transaction.purchaseDate, expirationDate: expiration,
                              revocationDate: transaction.revocationDate, price: transaction.price)
        }
        return PaidPeriod.paidSpans(of: periods).reduce(0) { $0 + Self.months(from: $1.lowerBound, to: $1.upperBound) }
    }

    /// Calendar months from `start` to `end` in the store calendar, and the days left over as a
    /// fraction of 30; zero when `end` is not after `start`.
    static func months(from start: Date, to end: Date) -> Double {
        guard end > start else { return 0 }
        let calendar = Calendar.storeCalendar
        // Counted as renewals count them: a month after January 31 is February 28.
        var whole = max(0, (calendar.dateComponents([.month], from: start, to: end).month ?? 0) - 1)
        while let next = calendar.date(byAdding: .month, value: whole + 1, to: start), next <= end { whole += 1 }
        let reached = calendar.date(byAdding: .month, value: whole, to: start) ?? start
        return Double(whole) + end.timeIntervalSince(reached) / 86_400 / 30
    }
}
