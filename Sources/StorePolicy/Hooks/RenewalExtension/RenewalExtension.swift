import LuaBridge

/// Days of service a subscriber is given, as Apple's Extend a Subscription Renewal Date takes
/// them: 1 to 90 days, with Apple's reason code.
public struct RenewalExtension: Sendable, Equatable, Hashable {
    /// Apple's `extendReasonCode`, by its word.
    public enum Reason: Int, Sendable, CaseIterable, Hashable {
        /// 0: no reason given.
        case undeclared = 0
        /// 1: for the customer's satisfaction.
        case customerSatisfaction = 1
        /// 2: another reason.
        case other = 2
        /// 3: a service issue or outage.
        case serviceIssueOrOutage = 3

        /// Apple's word: `UNDECLARED`, `CUSTOMER_SATISFACTION`, `OTHER`, `SERVICE_ISSUE_OR_OUTAGE`.
        public var word: String {
            switch self {
            case .undeclared: "UNDECLARED"
            case .customerSatisfaction: "CUSTOMER_SATISFACTION"
            case .other: "OTHER"
            case .serviceIssueOrOutage: "SERVICE_ISSUE_OR_OUTAGE"
            }
        }

        /// The reason of a word, in any letter case.
        public init?(word: String) {
            guard let found = Self.allCases.first(where: { $0.word == word.uppercased() }) else { return nil }
            self = found
        }
    }

    /// The most days Apple extends by at once.
    public static let maximumDays = 90

    /// How many days to add.
    public var days: Int
    /// Why.
    public var reason: Reason

    /// An extension.
    public init(days: Int, reason: Reason) {
        self.days = days
        self.reason = reason
    }

    /// The extension as a policy writes it: `{ days = N, reason = "SERVICE_ISSUE_OR_OUTAGE" }`.
    public var luaValue: LuaValue {
        .table(LuaTable(hash: [.string("days"): .integer(Int64(days)), .string("reason"): .string(reason.word)]))
    }
}
