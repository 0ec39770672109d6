import Foundation

/// The length of each interval of a subscription metrics report, in UTC: a day, a week from
/// Monday, or a calendar month from the 1st.
public enum SubscriptionMetricsInterval: String, Sendable, Hashable, CaseIterable, Codable {
    case day, week, month

    /// The Gregorian calendar in UTC every boundary is taken in.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.firstWeekday = 2
        return calendar
    }()

    /// The start of the interval that contains `date`.
    public func start(of date: Date) -> Date {
        let calendar = Self.calendar
        switch self {
        case .day:
            return calendar.startOfDay(for: date)
        case .week:
            let day = calendar.startOfDay(for: date)
            let weekday = calendar.component(.weekday, from: day)
            return calendar.date(byAdding: .day, value: -((weekday + 5) % 7), to: day)!
        case .month:
            return calendar.date(from: calendar.dateComponents([.year, .month], from: date))!
        }
    }

    /// The start of the interval after the one that starts at `start`.
    public func next(after start: Date) -> Date {
        moved(start, by: 1)
    }

    /// The start of the interval before the one that starts at `start`.
    public func previous(before start: Date) -> Date {
        moved(start, by: -1)
    }

    private func moved(_ start: Date, by count: Int) -> Date {
        switch self {
        case .day: Self.calendar.date(byAdding: .day, value: count, to: start)!
        case .week: Self.calendar.date(byAdding: .day, value: 7 * count, to: start)!
        case .month: Self.calendar.date(byAdding: .month, value: count, to: start)!
        }
    }
}
