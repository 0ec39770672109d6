import Foundation
import LuaBridge

/// What `storerules diff` draws a hook's arguments from: the products and subscription groups
/// of both catalogs, the placements it asks at, the refund reasons the policies name, and the
/// time of the comparison. Each ``PolicyHook`` makes its argument lists from these.
struct HookScenarioInputs {
    /// Every product of either catalog, by id.
    let products: [PolicyProduct]
    /// Every subscription group id of either catalog.
    let groups: [String]
    /// The placements `show_merchandising` is asked at.
    let placements: [String]
    /// The refund reasons `consumption` is asked with.
    let refundReasons: [String]
    /// The time of the comparison, in whole seconds.
    let now: Date

    /// A purchase as `eval --arg` takes it for `grant` and `consumption`: Apple's field names,
    /// and for `consumption` whether the ledger granted it (at its purchase, listing no grants).
    static func transaction(_ productID: String, type: String = "consumable", quantity: Int, at date: Date, granted: Bool? = nil) -> LuaValue {
        let milliseconds = Int64(date.timeIntervalSince1970 * 1000)
        var fields: [LuaValue: LuaValue] = [
            .string("transactionId"): .string("2000000000000001"), .string("originalTransactionId"): .string("2000000000000001"),
            .string("productId"): .string(productID), .string("quantity"): .integer(Int64(quantity)),
            .string("type"): .string(transactionType(type)), .string("purchaseDate"): .integer(milliseconds),
            .string("environment"): .string("Xcode"), .string("storefront"): .string("USA"),
            .string("inAppOwnershipType"): .string("PURCHASED"),
        ]
        if let granted { fields[.string("granted")] = .boolean(granted) }
        return .table(LuaTable(hash: fields))
    }

    /// Apple's `type` of a transaction for a product of the policy type `type`.
    static func transactionType(_ type: String) -> String {
        switch type {
        case "non_consumable": "Non-Consumable"
        case "auto_renewable": "Auto-Renewable Subscription"
        case "non_renewing": "Non-Renewing Subscription"
        default: "Consumable"
        }
    }
}
