import Foundation

extension CustomerState {
    /// How many months of service the customer paid for in the subscription group `groupID`:
    /// the periods of their own transactions with a price above zero (a free trial is not paid;
    /// a payload without a price counts as paid), each whole from the moment it is paid for, cut
    /// short only by a refund or by the next period of the same subscription (an upgrade starts
    /// before the period it replaces ends), counted in calendar months with the rest of a month
    /// as a fraction of 30 days. It does not depend on the state's ``date``: a period counts in
    /// full as soon as it is bought.
    public func paidMonths(inGroup groupID: String) -> Double {
        let periods = transactions.filter {
            $0.subscriptionGroupID == groupID && $0.ownershipType != .familyShared && $0.expirationDate != nil
        }.sorted { $0.purchaseDate < $1.purchaseDate }
        var months = 0.0
        for (index, transaction) in periods.enumerated() where (transaction.price ?? 1) > 0 {
            var end = transaction.expirationDate ?? transaction.purchaseDate
            if let revocation = transaction.revocationDate { end = min(end, revocation) }
            if let next = periods.dropFirst(index + 1).first(where: { $0.originalID == transaction.originalID }) {
                end = min(end, next.purchaseDate)
            }
            months += Self.months(from: transaction.purchaseDate, to: end)
        }
        return months
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
