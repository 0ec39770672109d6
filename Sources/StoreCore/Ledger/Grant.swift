/// An amount of an item given to a customer because of a transaction: five pellets, one
/// bird-bath skin.
///
/// Grants are decided by the policy (its `grant` hook) and recorded by the ``Ledger`` under the
/// transaction's id, so one transaction grants once however often it is delivered. A decision
/// may hold several grants, also of the same item; they are kept in order.
///
/// A grant is valid when ``validate()`` accepts it:
/// - `item` is not empty, has no leading or trailing whitespace and no control characters;
/// - `amount` is at least 1 and at most ``maximumAmount``.
///
/// A decision that contains an invalid grant is refused as a whole: the transaction stays
/// unfinished with ``UnfinishedReason/invalidGrant(_:)`` and nothing of it is granted.
public struct Grant: Sendable, Hashable, Codable {
    /// The largest amount one grant may carry, so that balances cannot overflow.
    public static let maximumAmount = 1_000_000_000

    /// The item granted, as the policy names it (for example `"pellet"`).
    public var item: String
    /// How many of the item are granted.
    public var amount: Int

    /// Creates a grant of `amount` of `item`.
    public init(item: String, amount: Int) {
        self.item = item
        self.amount = amount
    }

    /// Checks the rules listed on ``Grant``.
    ///
    /// - Throws: ``GrantValidationError`` naming the rule the grant breaks.
    public func validate() throws {
        if item.isEmpty {
            throw GrantValidationError(grant: self, problem: .emptyItem)
        }
        if item.first?.isWhitespace == true || item.last?.isWhitespace == true {
            throw GrantValidationError(grant: self, problem: .itemHasSurroundingWhitespace)
        }
        if item.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw GrantValidationError(grant: self, problem: .itemHasControlCharacters)
        }
        if amount < 1 {
            throw GrantValidationError(grant: self, problem: .amountNotPositive)
        }
        if amount > Self.maximumAmount {
            throw GrantValidationError(grant: self, problem: .amountTooLarge)
        }
    }
}

extension Grant {
    /// The total amount of each item in `grants`, times `sign` (-1 for a reversal).
    static func totals(_ grants: [Grant], sign: Int = 1) -> [String: Int] {
        grants.reduce(into: [:]) { totals, grant in totals[grant.item, default: 0] += sign * grant.amount }
    }
}
