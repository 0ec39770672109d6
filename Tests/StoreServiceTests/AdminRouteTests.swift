import Foundation
import StoreService
import Testing

/// The administration routes: the policy served, a reload (one that fails keeps the old
/// policy), and a retry of the transactions left unfinished.
@Suite struct AdminRouteTests {
    typealias JSON = [String: Any]

    @Test("administration: the policy, a reload that fails keeps the old one, and a retry of unfinished transactions")
    func adminRoutes() throws {
        let folder = try ExampleFolderCopy()
        defer { folder.remove() }
        try RouterTestService.test(configure: { $0.folder = folder.url.path }) { service in
            let admin = RouterTestService.adminKey
            let policy = service.respond("GET", "/v1/admin/policy", key: admin)
            #expect(policy.status == 200)
            let version = try #require(policy.object["version"] as? String)
            #expect((policy.object["hooks"] as? [String])?.contains("grant") == true)
            let policyURL = folder.url.appending(path: "policy.lua")
            let original = try String(contentsOf: policyURL, encoding: .utf8)
            try "this is not Lua".write(to: policyURL, atomically: true, encoding: .utf8)
            let broken = service.respond("POST", "/v1/admin/reload", key: admin)
            #expect(broken.status == 422)
            #expect(service.respond("GET", "/v1/admin/policy", key: admin).object["version"] as? String == version)
            try (original + "\n-- edited\n").write(to: policyURL, atomically: true, encoding: .utf8)
            let reloaded = service.respond("POST", "/v1/admin/reload", key: admin)
            #expect(reloaded.status == 200)
            #expect(reloaded.object["previous_version"] as? String == version)
            // A transaction the catalog does not list stays unfinished; the retry asks again for it.
            let unlisted = try service.sign(BackyardBirdsPayloads.consumable(id: "7600", productID: "seed.bag.new"))
            #expect(try service.respond("POST", "/v1/transactions", json: ["customer": "gil", "signed_transaction": unlisted])
                .object["outcome"] as? String == "unfinished")
            let retried = service.respond("POST", "/v1/admin/retry-unfinished", key: admin)
            #expect(retried.status == 200)
            let transactions = (retried.object["transactions"] as? [JSON]) ?? []
            #expect(transactions.compactMap { $0["transaction_id"] as? String } == ["7600"], "\(retried.bodyText)")
            #expect(transactions.first?["outcome"] as? String == "unfinished")
            // Once the catalog lists the product and the policy has its rule, the retry grants it,
            // and nothing is left to retry.
            let ruled = original.replacingOccurrences(
                of: #"["pellet.box"]    = { { item = "pellet", amount = 5 } },"#,
                with: #"["pellet.box"]    = { { item = "pellet", amount = 5 } }, ["seed.bag.new"] = { { item = "pellet", amount = 3 } },"#)
            #expect(ruled != original)
            try ruled.write(to: policyURL, atomically: true, encoding: .utf8)
            let catalogURL = folder.url.appending(path: "Products.storekit")
            let catalog = try String(contentsOf: catalogURL, encoding: .utf8)
            let listed = catalog.replacingOccurrences(of: #""products" : ["#, with: #"""
                "products" : [
                    {"displayPrice": "1.99", "familyShareable": false, "internalID": "5EEDBA60", "productID": "seed.bag.new",
                     "localizations": [{"description": "A bag of seeds.", "displayName": "Seed Bag", "locale": "en_US"}],
                     "referenceName": "Seed Bag", "type": "Consumable"},
                """#)
            #expect(listed != catalog)
            try listed.write(to: catalogURL, atomically: true, encoding: .utf8)
            #expect(service.respond("POST", "/v1/admin/reload", key: admin).status == 200)
            let granted = service.respond("POST", "/v1/admin/retry-unfinished", key: admin)
            let grants = (granted.object["transactions"] as? [JSON]) ?? []
            #expect(grants.compactMap { $0["transaction_id"] as? String } == ["7600"], "\(granted.bodyText)")
            #expect(grants.first?["outcome"] as? String == "granted", "\(granted.bodyText)")
            #expect((grants.first?["balances"] as? JSON)?["pellet"] as? Int == 3, "\(granted.bodyText)")
            let again = service.respond("POST", "/v1/admin/retry-unfinished", key: admin)
            #expect((again.object["transactions"] as? [JSON])?.isEmpty == true, "\(again.bodyText)")
        }
    }
}
