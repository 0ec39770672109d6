import Foundation
import StoreCore
import StorePolicy
import Testing

/// A request's product argument, given by its id, is looked up in the catalog: the hook sees
/// the product with its subscription's group level, and an id the catalog lacks is refused.
@Suite struct HookRequestProductArgumentTests {
    @Test func productArgumentsAreLookedUpInTheCatalog() throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = try Catalog(contentsOf: packageRoot.appending(path: "Examples/BackyardBirds/Products.storekit"))
        let engine = try PolicyEngine(
            source: PolicySource(text: "return { plan_icon = function(ctx, plan) return plan.subscription.group_level == 1 and 'bird' or 'leaf' end }"),
            catalog: PolicyCatalog(catalog))
        let unknown = #expect(throws: PolicyError.self) {
            try HookRequest(hook: "plan_icon", arguments: [.string("no.such.product")]).evaluate(with: engine)
        }
        #expect(unknown?.description.contains("no product 'no.such.product' in the catalog") == true, "\(String(describing: unknown))")
        for (product, icon) in [("pass.premium", "bird"), ("pass.family", "leaf")] {
            let found = try HookRequest(hook: "plan_icon", arguments: [.string(product)]).evaluate(with: engine)
            #expect(found.result == .string(icon), "\(product) is looked up with its group level: \(found.result)")
        }
    }

    @Test("a grant request whose transaction names no product, and that gives none, is refused whether or not the policy has a grant hook")
    func aGrantWithoutAProductIsRefused() throws {
        for policy in ["return { grant = function(ctx, tx, product) return {} end }", "return {}"] {
            let engine = try PolicyEngine(source: PolicySource(text: policy), catalog: PolicyCatalog(products: [:], groups: [:]))
            let request = try HookRequest.decode(json: Data(#"{"hook": "grant", "args": [{"transactionId": "1", "quantity": 1}]}"#.utf8))
            let refused = #expect(throws: PolicyError.self) { try request.evaluate(with: engine) }
            #expect(refused?.description.contains("grant needs a product") == true, "\(policy): \(String(describing: refused))")
        }
    }
}
