import Foundation
@testable import StorePolicy

/// A small catalog for engine tests: a consumable, a non-consumable and a three-level group.
let testCatalog: PolicyCatalog = {
    func plan(_ id: String, _ level: Int) -> PolicyProduct {
        PolicyProduct(id: id, type: "auto_renewable", displayName: id, description: "", price: "4.99", displayPrice: "$4.99",
                      isFamilyShareable: false,
                      subscription: .init(groupId: "PASS", groupName: "Pass", groupLevel: level,
                                          period: .init(unit: "month", value: 1), introductoryOffer: nil, promotionalOffers: []))
    }
    let pellets = PolicyProduct(id: "pellets.box", type: "consumable", displayName: "Box of Pellets", description: "",
                                price: "2.99", displayPrice: "$2.99", isFamilyShareable: false, subscription: nil)
    let skin = PolicyProduct(id: "feeder.skin", type: "non_consumable", displayName: "Feeder Skin", description: "",
                             price: "1.99", displayPrice: "$1.99", isFamilyShareable: true, subscription: nil)
    let plans = [plan("pass.premium", 1), plan("pass.family", 2), plan("pass.individual", 3)]
    var products = Dictionary(uniqueKeysWithValues: plans.map { ($0.id, $0) })
    products[pellets.id] = pellets
    products[skin.id] = skin
    return PolicyCatalog(products: products, groups: ["PASS": .init(id: "PASS", name: "Pass", products: plans.map(\.id))])
}()

/// A known customer subscribed to `productID` at `level` in group PASS.
func subscriber(_ productID: String, level: Int, state: SubscriptionState = .subscribed) -> PolicyContext {
    PolicyContext(customer: CustomerContext(id: "c1", statusKnown: true, entitlements: [productID],
                                            subscriptions: ["PASS": SubscriptionSnapshot(productID: productID, groupLevel: level, state: state)]))
}

/// A known customer without subscriptions.
let newCustomer = PolicyContext(customer: CustomerContext(id: "c2", statusKnown: true))

/// An engine for `text` with the test catalog and tight limits.
func makeEngine(_ text: String) throws -> PolicyEngine {
    try PolicyEngine(source: PolicySource(text: text), catalog: testCatalog,
                     limits: .init(instructionBudget: 5_000_000, deadline: .seconds(2), memoryLimit: 16 << 20))
}
