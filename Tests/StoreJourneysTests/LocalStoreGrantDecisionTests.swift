import Foundation
import SQLiteLedger
import StoreCore
import StoreJourneys
import StorePolicy
import StoreTesting
import Testing
import TestPrerequisites

/// A local store whose purchases the policy's `grant` hook decides, as `storerules store` runs
/// it: each decision sees the customer's whole context at the store's time, and a hook that
/// fails leaves the transaction unfinished with its error.
@Suite struct LocalStoreGrantDecisionTests {
    /// The Backyard Birds catalog, a store over a new SQLite ledger in the Sandbox, and `policy`
    /// deciding its grants at the store's time, which the test keeps up to date as
    /// `storerules store` does before each command.
    struct Shop {
        let store: LocalStore
        let ledger: Ledger
        let storeTime: StoreTime

        init(policy: String) throws {
            let directory = try TestFolders.make("store-grants")
            let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let catalog = try Catalog(contentsOf: packageRoot.appending(path: "Examples/BackyardBirds/Products.storekit"))
            let engine = try PolicyEngine(source: PolicySource(text: policy), catalog: PolicyCatalog(catalog))
            ledger = try Ledger(path: directory.appending(path: "ledger.sqlite").path)
            storeTime = StoreTime(Date())
            store = try LocalStore(catalog: catalog, authority: try SigningAuthority.generate(), ledger: ledger,
                                   state: try Database(path: directory.appending(path: "store.sqlite").path),
                                   configuration: LocalStore.Configuration(bundleID: "com.example.storerules"),
                                   decide: engine.grantDecision(for: ledger, catalog: catalog, storeTime: storeTime))
            storeTime.date = try store.now()
        }

        /// Buys `product` for ana and returns the transaction.
        func buy(_ product: String) throws -> JWSTransactionDecodedPayload {
            storeTime.date = try store.now()
            guard case .success(let bought) = try store.purchase(product, customer: "ana") else {
                throw Failure(description: "the purchase of \(product) did not succeed")
            }
            return bought.payload
        }

        /// What the ledger granted for `transaction`, by item.
        func grants(_ transaction: JWSTransactionDecodedPayload) throws -> [String: Int] {
            Dictionary(uniqueKeysWithValues: try ledger.grants(ofTransaction: transaction.transactionId ?? "").map { ($0.item, $0.amount) })
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    @Test("grants see the customer's whole context at the store's time")
    func grantsSeeTheCustomersWholeContextAtTheStoresTime() throws {
        let shop = try Shop(policy: """
            local PASS = "6F3A93AB"
            return { grant = function(ctx, tx, product)
                if product.id ~= "pellet.box" then return {} end
                local grants = { { item = "pellet", amount = 5 }, { item = "day", amount = math.floor(ctx.now / 86400) } }
                local pass = ctx.customer.subscriptions[PASS]
                if pass ~= nil and pass.state == "subscribed" and ctx.customer.entitlements[1] == pass.product_id then
                    grants[#grants + 1] = { item = "subscriber_bonus", amount = 6 - pass.group_level }
                end
                if (ctx.customer.balances.pellet or 0) > 0 then
                    grants[#grants + 1] = { item = "returning_bonus", amount = 1 }
                end
                return grants
            end }
            """)
        let first = try shop.buy("pellet.box")
        _ = try shop.buy("pass.premium")
        shop.storeTime.date = try shop.store.now()
        _ = try shop.store.advance(by: try #require(StoreDuration(iso8601: "P1Y")))
        let second = try shop.buy("pellet.box")

        func day(_ transaction: JWSTransactionDecodedPayload) throws -> Int {
            Int(try #require(transaction.signedDate).millisecondsSince1970 / 86_400_000)
        }
        #expect(try shop.grants(first) == ["pellet": 5, "day": try day(first)])
        #expect(try day(second) - day(first) >= 365, "the store's clock moved a year ahead")
        #expect(try shop.grants(second) == ["pellet": 5, "day": try day(second), "subscriber_bonus": 5, "returning_bonus": 1])
    }

    @Test("a failing grant leaves the transaction unfinished, with the hook's error")
    func aFailingGrantLeavesTheTransactionUnfinished() throws {
        let shop = try Shop(policy: "return { grant = function(ctx, tx, product) error('no rule for ' .. product.id) end }")
        let bought = try shop.buy("pellet.box")
        let stored = try #require(try shop.ledger.transaction(id: bought.transactionId ?? ""))
        #expect(!stored.isFinished)
        #expect("\(stored.grantState)".contains("no rule for pellet.box"), "\(stored.grantState)")
    }
}
