/// Why a ``Grant`` is not valid.
public struct GrantValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule a grant breaks.
    public enum Problem: String, Hashable, Sendable, Codable {
        /// The item name is empty.
        case emptyItem
        /// The item name starts or ends with whitespace.
        case itemHasSurroundingWhitespace
        /// The item name contains a control character.
        case itemHasControlCharacters
        /// The amount is zero or negative.
        case amountNotPositive
        /// The amount is larger than ``Grant/maximumAmount``.
        case amountTooLarge
    }

    /// The grant that breaks the rule.
    public let grant: Grant
    /// The rule it breaks.
    public let problem: Problem

    /// Creates the error for `grant`.
    public init(grant: Grant, problem: Problem) {
        self.grant = grant
        self.problem = problem
    }

    /// One line naming the grant and the rule.
    public var description: String {
        let rule = switch problem {
        case .emptyItem: "the item name is empty"
        case .itemHasSurroundingWhitespace: "the item name starts or ends with whitespace"
        case .itemHasControlCharacters: "the item name contains a control character"
        case .amountNotPositive: "the amount must be at least 1"
        case .amountTooLarge: "the amount exceeds \(Grant.maximumAmount)"
        }
        return "invalid grant (item: \(String(reflecting: grant.item)), amount: \(grant.amount)): \(rule)"
    }
}
