import Foundation
import StorePolicy
import Testing

/// An empty input, `{}`, is an anonymous customer whose every table is present: what a hook
/// sees when `storerules eval` is given no context.
@Suite struct EmptyContextTests {
    @Test func anEmptyContextIsAnAnonymousCustomerWithEveryTable() throws {
        let engine = try PolicyEngine(source: PolicySource(text: """
            return { probe = function(ctx)
                local c = ctx.customer
                return { known = c.status_known, n = #c.entitlements, subs = next(c.subscriptions) == nil,
                          balances = next(c.balances) == nil, attributes = next(c.attributes) == nil,
                          env = ctx.environment, storefront = ctx.storefront, locale = ctx.locale,
                          catalog = next(ctx.catalog.products) == nil }
            end }
            """), catalog: .empty)
        let context = try PolicyContext.decode(json: Data("{}".utf8))
        let response = try HookRequest(hook: "probe", context: context).evaluate(with: engine)
        let decided = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(response.result)) as? [String: Any])
        #expect(decided["known"] as? Bool == false)
        #expect(decided["n"] as? Int == 0)
        #expect(decided["subs"] as? Bool == true)
        #expect(decided["balances"] as? Bool == true)
        #expect(decided["attributes"] as? Bool == true)
        #expect(decided["env"] as? String == "xcode")
        #expect(decided["storefront"] as? String == "USA")
        #expect(decided["catalog"] as? Bool == true)
        #expect(response.hook == "probe")
        #expect(!response.policyVersion.isEmpty)
        #expect(response.trace != nil)
    }
}
