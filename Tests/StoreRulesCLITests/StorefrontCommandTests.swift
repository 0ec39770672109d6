import Foundation
import Testing

@Suite struct StorefrontCommandTests {
    private func plan(_ arguments: [String]) throws -> [String: Any] {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return (try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]) ?? [:]
    }

    @Test func aLedgerKeptByTheLocalStoreIsReadAtTheStoresTime() throws {
        let ledger = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-\(UUID().uuidString).sqlite").path
        let store = ["store", "Examples/BackyardBirds", "--ledger", ledger]
        #expect(try CommandRunner.run(store + ["purchase", "pass.individual", "--customer", "kim"]).status == 0)
        let storefront = ["storefront", "Examples/BackyardBirds", "--ledger", ledger, "--customer-id", "kim", "--placement", "home", "--json"]
        let subscribed = try plan(storefront)
        #expect(subscribed["show_merchandising"] as? Bool == false)
        let stores = subscribed["subscription_stores"] as? [[String: Any]]
        #expect(stores?.first?["current_product_id"] as? String == "pass.individual")
        #expect((subscribed["status_line"] as? String)?.hasPrefix("Renews") == true)

        #expect(try CommandRunner.run(store + ["auto-renew", "off", "--customer", "kim", "--group", "6F3A93AB"]).status == 0)
        #expect(try CommandRunner.run(store + ["advance", "P2M"]).status == 0)
        let lapsed = try plan(storefront)
        #expect(lapsed["show_merchandising"] as? Bool == true, "two store months later the pass has expired")
        #expect((lapsed["status_line"] as? String)?.hasPrefix("Expired") == true)
    }

    @Test func theCustomerComesFromAFileOrALedgerNotBoth() throws {
        let result = try CommandRunner.run(["storefront", "Examples/BackyardBirds", "--customer", "-", "--ledger", "/tmp/x.sqlite"], input: "{}")
        #expect(result.status == 64)
        #expect(result.standardError.contains("either --customer FILE, or --ledger FILE and --customer-id ID"))
    }
}
