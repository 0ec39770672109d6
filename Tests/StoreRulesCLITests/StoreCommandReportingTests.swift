import Foundation
import Testing

/// What `storerules store` says about grants, the ledger's identity and durations.
@Suite struct StoreCommandReportingTests {
    /// Grants in JSON (`[{"item", "amount"}]`) as `AMOUNT ITEM` words.
    static func words(_ grants: Any?) -> [String] {
        (grants as? [[String: Any]] ?? []).map { "\($0["amount"] as? Int ?? 0) \($0["item"] as? String ?? "?")" }
    }

    @Test("a purchase says what the policy granted, in text and in JSON")
    func purchaseSaysWhatWasGranted() throws {
        let shop = try StoreCommandTests.Shop()
        let text = try shop.run("purchase", "pellet.box", "--customer", "ana")
        #expect(text.standardOutput.contains("\nGranted 5 pellet.\n"), "\(text.standardOutput)")
        let json = try shop.json("purchase", "pellet.box", "--customer", "ana")
        let grant = try #require(json["grant"] as? [String: Any])
        #expect(grant["state"] as? String == "granted")
        #expect(Self.words(grant["grants"]) == ["5 pellet"])
    }

    @Test("a purchase whose grant decision fails says it is unfinished and why")
    func purchaseSaysWhyTheGrantIsUnfinished() throws {
        let folder = try CommandRunner.policyFolder(#"return { grant = function() error("no grants today") end }"#)
        try FileManager.default.copyItem(
            at: CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds/Products.storekit"),
            to: folder.appendingPathComponent("Products.storekit"))
        let shop = try StoreCommandTests.Shop(folder: folder.path)
        let json = try shop.json("purchase", "pellet.box")
        let grant = try #require(json["grant"] as? [String: Any])
        #expect(grant["state"] as? String == "unfinished")
        #expect((grant["reason"] as? String)?.contains("no grants today") == true, "\(grant)")
    }

    @Test("a refund says which grants it reversed")
    func refundSaysWhatItReversed() throws {
        let shop = try StoreCommandTests.Shop()
        let purchase = try shop.json("purchase", "pellet.box", "--customer", "ana")
        let id = try #require(StoreCommandTests.transaction(purchase)["transactionId"] as? String)
        let refund = try shop.json("refund", id)
        #expect(Self.words(refund["reversed_grants"]) == ["5 pellet"])
        let second = try shop.json("purchase", "pellet.box", "--customer", "ana")
        let secondID = try #require(StoreCommandTests.transaction(second)["transactionId"] as? String)
        #expect(try shop.run("refund", secondID).standardOutput.hasPrefix("Refunded \(secondID); reversed 5 pellet."))
    }

    @Test("the ledger remembers its bundle id and environment: a different one is refused, none uses them")
    func theLedgerRemembersItsIdentity() throws {
        let shop = try StoreCommandTests.Shop()
        _ = try shop.json("purchase", "pellet.box", "--bundle-id", "com.example.birds", "--environment", "sandbox")
        let mismatch = try shop.run("status", "--bundle-id", "com.example.other")
        #expect(mismatch.status == 1)
        #expect(mismatch.standardError.contains("was made for the bundle identifier com.example.birds, not com.example.other"))
        let otherEnvironment = try shop.run("status", "--environment", "Xcode")
        #expect(otherEnvironment.status == 1)
        #expect(otherEnvironment.standardError.contains("was made for the Sandbox environment, not Xcode"))
        let later = try shop.json("purchase", "pellet.box")
        let payload = StoreCommandTests.transaction(later)
        #expect(payload["bundleId"] as? String == "com.example.birds")
        #expect(payload["environment"] as? String == "Sandbox")
    }

    @Test("advance takes the REPL's short durations as well as ISO 8601")
    func advanceTakesShortDurations() throws {
        let shop = try StoreCommandTests.Shop()
        let start = try #require(try shop.json("advance", "PT0S")["now"] as? Int)
        let afterHours = try #require(try shop.json("advance", "12H")["now"] as? Int)
        #expect((12 * 3_600_000..<12 * 3_600_000 + 60_000).contains(afterHours - start), "the system clock runs on too")
        let afterDays = try #require(try shop.json("advance", "3d")["now"] as? Int)
        #expect((3 * 86_400_000..<3 * 86_400_000 + 60_000).contains(afterDays - afterHours))
        #expect(try shop.run("advance", "1M").status == 0)
    }
}
