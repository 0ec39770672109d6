import Foundation
import LuaBridge
import StoreCore

extension TransactionDelivery {
    /// The fields `consumption`'s `tx` has besides Apple's: `granted`, whether the ledger
    /// granted the transaction; `granted_date`, when, in whole epoch seconds (nil when not
    /// granted); `grants`, what it granted, a list of `{ item, amount, reversed }` in the
    /// decision's order, `reversed` true for a grant a refund or revocation took back.
    static let luaFields = ["granted", "granted_date", "grants"]

    /// The fields as the hook reads them, in ``luaFields``' order.
    var luaFields: [(String, LuaValue)] {
        let grants = grants.map { grant in
            LuaValue.table(LuaTable(hash: [.string("item"): .string(grant.item), .string("amount"): .integer(Int64(grant.amount)),
                                           .string("reversed"): .boolean(grant.isReversed)]))
        }
        return [("granted", .boolean(isGranted)), ("granted_date", grantedDate.map { .integer(EpochSeconds.whole($0)) } ?? .nil),
                ("grants", .table(LuaTable(array: grants)))]
    }

    /// ``luaFields`` as a table's pairs: what a decision's inputs and notes show of the delivery.
    public var luaFieldTable: [LuaValue: LuaValue] {
        Dictionary(uniqueKeysWithValues: luaFields.filter { $0.1 != .nil }.map { (LuaValue.string($0.0), $0.1) })
    }

    /// The delivery a transaction table given to `eval --arg` or `decide` describes with
    /// ``luaFields``: `granted` true unless it says false, `granted_date` the purchase's when
    /// left out, `grants` none unless listed (`reversed` false unless true).
    ///
    /// - Throws: ``PolicyInputError`` naming the field that is wrong.
    static func described(by transaction: LuaValue, purchaseDate: Date?) throws(PolicyInputError) -> TransactionDelivery {
        guard case .table(let table) = transaction else { return TransactionDelivery(grantState: .granted, grantedDate: purchaseDate) }
        let granted: Bool
        switch table.hash[.string("granted")] ?? .nil {
        case .nil: granted = true
        case .boolean(let value): granted = value
        default: throw .invalidValue(path: "granted", reason: "expected true or false")
        }
        let date: Date?
        switch table.hash[.string("granted_date")] ?? .nil {
        case .nil: date = granted ? purchaseDate : nil
        case .integer(let seconds): date = try epochSeconds(Double(seconds), path: "granted_date")
        case .number(let seconds): date = try epochSeconds(seconds, path: "granted_date")
        default: throw .invalidValue(path: "granted_date", reason: "expected epoch seconds")
        }
        let grants = try deliveredGrants(table.hash[.string("grants")] ?? .nil)
        guard granted || (date == nil && grants.isEmpty) else {
            throw .invalidValue(path: date == nil ? "grants" : "granted_date",
                                reason: "a transaction the ledger has not granted (granted = false) has no grants and no granted_date")
        }
        return TransactionDelivery(grantState: granted ? .granted : .unfinished(.awaitingGrant), grantedDate: date, grants: grants)
    }

    private static func epochSeconds(_ seconds: Double, path: String) throws(PolicyInputError) -> Date {
        guard let date = EpochSeconds.date(seconds) else {
            throw .invalidValue(path: path, reason: "expected epoch seconds within years 1 to 9999, found \(seconds)")
        }
        return date
    }

    /// `grants` as a list of `{ item, amount, reversed }`.
    private static func deliveredGrants(_ value: LuaValue) throws(PolicyInputError) -> [DeliveredGrant] {
        if value == .nil { return [] }
        guard case .table(let list) = value, list.hash.isEmpty else {
            throw .invalidValue(path: "grants", reason: "expected a list of { item, amount, reversed }")
        }
        var grants: [DeliveredGrant] = []
        for (position, entry) in list.array.enumerated() {
            let path = "grants[\(position)]"
            guard case .table(let fields) = entry else { throw .invalidValue(path: path, reason: "expected { item, amount, reversed }") }
            if let stray = fields.hash.keys.first(where: { !["item", "amount", "reversed"].contains($0.stringKey ?? "") }) {
                throw .unknownField(path: path, field: stray.stringKey ?? "\(stray)", known: ["item", "amount", "reversed"])
            }
            guard case .string(let item)? = fields.hash[.string("item")], !item.isEmpty else {
                throw .invalidValue(path: path + ".item", reason: "expected the item's name")
            }
            guard case .integer(let amount)? = fields.hash[.string("amount")], amount > 0, amount <= Grant.maximumAmount else {
                throw .invalidValue(path: path + ".amount", reason: "expected a whole amount from 1 to \(Grant.maximumAmount)")
            }
            let reversed: Bool
            switch fields.hash[.string("reversed")] ?? .nil {
            case .nil: reversed = false
            case .boolean(let value): reversed = value
            default: throw .invalidValue(path: path + ".reversed", reason: "expected true or false")
            }
            grants.append(DeliveredGrant(item: item, amount: Int(amount), isReversed: reversed))
        }
        return grants
    }
}

private extension LuaValue {
    /// The key as a field name, when it is a string.
    var stringKey: String? {
        if case .string(let key) = self { return key }
        return nil
    }
}
