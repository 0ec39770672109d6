import Foundation
import StoreCore
import Testing
import TestPrerequisites

/// `storerules store`, driven across several processes that share one ledger file.
@Suite struct StoreCommandTests {
    /// A ledger file in a fresh folder, and a way to run store commands on it.
    struct Shop: Sendable {
        let folder: String
        let ledger: String
        /// Options every command gets, such as `--environment Sandbox`.
        let options: [String]

        init(folder: String = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds").path,
             options: [String] = []) throws {
            let directory = try TestFolders.make("store-cli")
            self.folder = folder
            self.options = options
            ledger = directory.appendingPathComponent("ledger.sqlite").path
        }

        /// Runs `storerules store FOLDER --ledger LEDGER options… arguments…`.
        func run(_ arguments: String...) throws -> CommandRunner.Result {
            try run(arguments)
        }

        /// Runs `storerules store FOLDER --ledger LEDGER options… arguments…`.
        func run(_ arguments: [String]) throws -> CommandRunner.Result {
            try CommandRunner.run(["store", folder, "--ledger", ledger] + options + arguments)
        }

        /// Runs a command with `--json`, expects success, and returns the parsed object.
        func json(_ arguments: String...) throws -> [String: Any] {
            try StoreCommandTests.object(try jsonData(arguments), arguments: arguments)
        }

        /// Runs a command with `--json`, expects success and a JSON object in which signed
        /// payloads appear only under the documented keys, and returns what it printed.
        func jsonData(_ arguments: [String]) throws -> Data {
            let result = try run(arguments + ["--json"])
            guard result.status == 0 else {
                throw CommandFailed(arguments: arguments, result: result)
            }
            let data = Data(result.standardOutput.utf8)
            try StoreCommandTests.checkSignedPayloadKeys(try StoreCommandTests.object(data, arguments: arguments))
            return data
        }
    }

    /// The JSON object in `data`, printed by the store command `arguments`.
    static func object(_ data: Data, arguments: [String] = []) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NotAnObject(arguments: arguments, text: String(decoding: data, as: UTF8.self))
        }
        return object
    }

    struct NotAnObject: Error, CustomStringConvertible {
        let arguments: [String]
        let text: String
        var description: String { "store \(arguments) printed no JSON object: \(text)" }
    }

    struct CommandFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let result: CommandRunner.Result
        var description: String { "store \(arguments) exited \(result.status): \(result.standardError)\(result.standardOutput)" }
    }

    /// Fails when a compact JWS appears under a key other than the three documented ones.
    static func checkSignedPayloadKeys(_ value: Any, key: String = "") throws {
        switch value {
        case let dictionary as [String: Any]:
            for (key, value) in dictionary { try checkSignedPayloadKeys(value, key: key) }
        case let array as [Any]:
            for element in array { try checkSignedPayloadKeys(element, key: key) }
        case let text as String where text.hasPrefix("eyJ") && text.split(separator: ".").count == 3:
            guard ["signed_transaction_info", "signed_renewal_info", "signed_payload"].contains(key) else {
                throw SignedPayloadUnderUnexpectedKey(key: key)
            }
        default:
            break
        }
    }

    struct SignedPayloadUnderUnexpectedKey: Error {
        let key: String
    }

    static func summaries(_ object: [String: Any]) -> [String] {
        (object["notifications"] as? [[String: Any]] ?? []).map { entry in
            [entry["notification_type"] as? String, entry["subtype"] as? String].compactMap { $0 }.joined(separator: "/")
        }
    }

    static func transaction(_ object: [String: Any]) -> [String: Any] {
        object["transaction"] as? [String: Any] ?? [:]
    }

    @Test func aCustomersYearRunsAcrossInvocationsOnOneLedger() throws {
        let shop = try Shop()
        let food = try shop.json("purchase", "pellet.box", "--quantity", "2", "--customer", "ana")
        #expect(food["result"] as? String == "success")
        #expect(Self.transaction(food)["productId"] as? String == "pellet.box")
        #expect(Self.transaction(food)["quantity"] as? Int == 2)
        #expect(Self.summaries(food) == ["ONE_TIME_CHARGE"])
        let foodID = try #require(Self.transaction(food)["transactionId"] as? String)

        let pem = try shop.run("certificate").standardOutput
        let root = try X509Certificate(pemRepresentation: pem)
        let verifier = try SignedDataVerifier(rootCertificates: [root], bundleId: "com.example.storerules", environment: .xcode)
        let verified = try verifier.verifyAndDecodeTransaction(try #require(food["signed_transaction_info"] as? String))
        #expect(verified.transactionId == foodID)

        let entitled = try shop.json("entitlements", "--customer", "ana")
        #expect(entitled["balances"] as? [String: Int] == ["pellet": 10])
        #expect(entitled["entitlements"] as? [String] == [])

        let pass = try shop.json("purchase", "pass.premium", "--customer", "ana")
        #expect(Self.transaction(pass)["offerType"] as? Int == 1)
        #expect(Self.summaries(pass) == ["SUBSCRIBED/INITIAL_BUY"])
        #expect(try shop.json("entitlements", "--customer", "ana")["entitlements"] as? [String] == ["pass.premium"])

        let renewals = try shop.json("advance", "P2M")
        #expect(Self.summaries(renewals) == ["DID_RENEW", "DID_RENEW"])
        let ledger = try shop.json("transactions", "--customer", "ana")
        let transactions = try #require(ledger["transactions"] as? [[String: Any]])
        #expect(transactions.count == 4)
        #expect(transactions.allSatisfy { $0["finished"] as? Bool == true })

        let off = try shop.json("auto-renew", "off", "--customer", "ana")
        #expect(Self.summaries(off) == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"])
        #expect(Self.summaries(try shop.json("advance", "P1M")) == ["EXPIRED/VOLUNTARY"])
        let status = try shop.json("status", "--customer", "ana")
        let subscriptions = try #require(status["subscriptions"] as? [[String: Any]])
        #expect(subscriptions.map { $0["state"] as? String } == ["expired"])
        #expect(try shop.json("entitlements", "--customer", "ana")["entitlements"] as? [String] == [])

        let refund = try shop.json("refund", foodID, "--reason", "developer-issue")
        #expect(Self.summaries(refund) == ["REFUND"])
        #expect(try shop.json("entitlements", "--customer", "ana")["balances"] as? [String: Int] == [:])

        let outbox = try shop.json("notifications")
        let entries = try #require(outbox["notifications"] as? [[String: Any]])
        #expect(entries.count == 7)
        #expect(entries.map { $0["sequence"] as? Int } == Array(1...7))
        #expect(entries.allSatisfy { ($0["signed_payload"] as? String)?.split(separator: ".").count == 3 })
        #expect((try shop.json("notifications", "--after", "5")["notifications"] as? [Any])?.count == 2)
    }

    @Test func readableOutputNamesWhatHappened() throws {
        let shop = try Shop()
        let bought = try shop.run("purchase", "pass.family", "--customer", "bo")
        #expect(bought.status == 0)
        #expect(bought.standardOutput.hasPrefix("Purchased pass.family for bo: transaction "))
        #expect(bought.standardOutput.contains("introductory offer"))
        #expect(bought.standardOutput.contains("SUBSCRIBED/INITIAL_BUY  bo"))
        let downgrade = try shop.run("purchase", "pass.individual", "--customer", "bo")
        #expect(downgrade.standardOutput.hasPrefix("pass.individual for bo starts at the next renewal"))
        #expect(downgrade.standardOutput.contains("DID_CHANGE_RENEWAL_PREF/DOWNGRADE"))
        let status = try shop.run("status")
        #expect(status.standardOutput.contains("bo  6F3A93AB  pass.family  subscribed"))
        #expect(status.standardOutput.contains("renews to pass.individual"))
        let certificate = try shop.run("certificate")
        #expect(certificate.standardOutput.hasPrefix("-----BEGIN CERTIFICATE-----"))
    }

    @Test func askToBuyRequestsAreAnsweredInLaterInvocations() throws {
        let shop = try Shop()
        let pending = try shop.json("purchase", "pellet.single", "--customer", "kid", "--ask-to-buy", "on")
        #expect(pending["result"] as? String == "pending")
        let approveID = try #require((pending["request"] as? [String: Any])?["id"] as? String)
        let second = try shop.json("purchase", "nectar.cup", "--customer", "kid", "--ask-to-buy", "on")
        let declineID = try #require((second["request"] as? [String: Any])?["id"] as? String)
        let listed = try #require(try shop.json("requests")["requests"] as? [[String: Any]])
        #expect(listed.map { $0["state"] as? String } == ["pending", "pending"])

        let approved = try shop.json("approve", approveID)
        #expect(Self.transaction(approved)["productId"] as? String == "pellet.single")
        #expect(Self.summaries(approved) == ["ONE_TIME_CHARGE"])
        _ = try shop.json("decline", declineID)
        #expect(try shop.json("entitlements", "--customer", "kid")["balances"] as? [String: Int] == ["pellet": 1])
        let again = try shop.run("approve", declineID)
        #expect(again.status == 1)
        #expect(again.standardError == "storerules store: the Ask to Buy request \(declineID) is already declined\n")
    }

    @Test func billingRetrySettingsPersistAndTheIssueCanBeResolved() throws {
        let shop = try Shop()
        let settings = try shop.json("settings", "--billing-retry", "on", "--grace-period", "on")
        #expect(settings["billing_retry"] as? Bool == true)
        #expect(settings["grace_period"] as? Bool == true)
        _ = try shop.json("purchase", "pass.individual", "--customer", "ana")
        let failed = try shop.json("advance", "P1M")
        #expect(Self.summaries(failed) == ["DID_FAIL_TO_RENEW/GRACE_PERIOD"])
        let status = try #require(try shop.json("status")["subscriptions"] as? [[String: Any]])
        #expect(status.first?["state"] as? String == "inGracePeriod")
        let graceEnd = try #require(status.first?["grace_period_expiration_date"] as? Int)
        let readable = try shop.run("status").standardOutput
        #expect(readable.contains("ana  6F3A93AB  pass.individual  inGracePeriod  until "
            + Date(timeIntervalSince1970: Double(graceEnd) / 1000).ISO8601Format()), "\(readable)")
        #expect(try shop.json("entitlements", "--customer", "ana")["entitlements"] as? [String] == ["pass.individual"])
        let recovered = try shop.json("resolve", "--customer", "ana", "--group", "6F3A93AB")
        #expect(Self.summaries(recovered) == ["DID_RENEW/BILLING_RECOVERY"])
        #expect(try shop.json("settings", "--reset")["billing_retry"] as? Bool == false)
    }

    @Test func simulatedFailuresAreSwitchedOnAndOffAndRefuseInOneLine() throws {
        let shop = try Shop()
        let settings = try shop.json("settings", "--fail-purchases", "on", "--fail-sync", "on")
        #expect(settings["simulated_failures"] as? [String] == ["Purchase", "App Store Sync"])
        #expect(try shop.run("settings").standardOutput.contains("Simulated failures: Purchase, App Store Sync"))
        let refused = try shop.run("purchase", "pellet.box")
        #expect(refused.status == 1)
        #expect(refused.standardError == "storerules store: simulated Purchase failure: the store's settings make this call fail\n")
        #expect((try shop.json("transactions")["transactions"] as? [Any])?.isEmpty == true)
        #expect(try shop.run("sync").status == 1)
        let cleared = try shop.json("settings", "--fail-purchases", "off", "--fail-sync", "off")
        #expect(cleared["simulated_failures"] as? [String] == [])
        #expect(try shop.run("purchase", "pellet.box").status == 0)
    }

    @Test func familyMembersShareAcrossInvocations() throws {
        let shop = try Shop()
        _ = try shop.json("family", "join", "house", "--customer", "ana")
        _ = try shop.json("family", "join", "house", "--customer", "bea")
        let bought = try shop.json("purchase", "feeder.golden", "--customer", "ana")
        #expect(Self.summaries(bought) == ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE"])
        #expect(try shop.json("entitlements", "--customer", "bea")["entitlements"] as? [String] == ["feeder.golden"])
        let copies = try #require(try shop.json("transactions", "--customer", "bea")["transactions"] as? [[String: Any]])
        let copy = try #require(copies.first?["transaction_id"] as? String)
        #expect(Self.summaries(try shop.json("revoke", copy)) == ["REVOKE"])
        #expect(try shop.json("entitlements", "--customer", "bea")["entitlements"] as? [String] == [])
        #expect(Self.summaries(try shop.json("family", "leave", "--customer", "bea")).isEmpty)
    }

    @Test func restoringDeliversAgainWithoutGrantingTwice() throws {
        let shop = try Shop()
        _ = try shop.json("purchase", "food.sampler", "--customer", "ana")
        let restored = try shop.json("sync", "--customer", "ana")
        #expect((restored["transactions"] as? [Any])?.count == 1)
        _ = try shop.json("sync", "--customer", "ana")
        #expect(try shop.json("entitlements", "--customer", "ana")["balances"] as? [String: Int] == ["pellet": 2, "nectar": 2])
    }

    @Test func aFailingFeaturesHookFallsBackToTheEntitledProductsAndSaysWhy() throws {
        let folder = try CommandRunner.policyFolder(
            "return { features = function(ctx) error('no feature table') end }",
            files: ["Products.storekit": try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent(
                "Examples/BackyardBirds/Products.storekit"), encoding: .utf8)])
        let shop = try Shop(folder: folder.path)
        _ = try shop.json("purchase", "feeder.golden", "--customer", "ana")
        let result = try shop.run("entitlements", "--customer", "ana", "--json")
        #expect(result.status == 0)
        let entitled = try Self.object(Data(result.standardOutput.utf8))
        #expect(entitled["entitlements"] as? [String] == ["feeder.golden"])
        #expect(entitled["features"] as? [String] == ["feeder.golden"])
        #expect(result.standardError.hasPrefix("[policy] features of ana fell back to the entitled products: "))
        #expect(result.standardError.contains("no feature table"), "\(result.standardError)")
    }

    static let usageErrors: [(arguments: [String], message: String)] = [
        (["advance", "1Q"], "'1Q' is not a duration such as 1M, 3D"),
        (["status", "--quantity", "3"], "store status takes no option '--quantity'; it is an option of store purchase"),
        (["purchase", "pellet.box", "--quantiy", "3"], "unknown option '--quantiy' for store purchase; did you mean '--quantity'?"),
        (["frobnicate"], "unknown store command 'frobnicate'"),
        (["auto-renew", "maybe"], "auto-renew takes on or off, not 'maybe'"),
        (["refund", "1", "--reason", "whim"], "--reason takes other or developer-issue"),
        (["purchase", "pellet.box", "--quantity", "many"], "--quantity must be a whole number"),
        (["purchase", "pellet.box", "--app-account-token", "nope"], "--app-account-token must be a UUID"),
        (["settings", "--time-rate", "7"], "--time-rate must be one of"),
        (["settings", "--fail-sync", "maybe"], "--fail-sync takes on or off, not 'maybe'"),
        (["status", "--environment", "Staging"], "--environment takes Xcode, Sandbox or Production"),
        (["status", "--environment", "Production"], "the Production environment needs --app-apple-id"),
        (["notifications", "--after", "-1"], "--after must be a sequence number"),
        (["purchase"], "missing the PRODUCT to buy"),
    ]

    @Test(arguments: usageErrors.indices)
    func usageMistakesExitWithStatus64(index: Int) throws {
        let (arguments, message) = Self.usageErrors[index]
        let shop = try Shop()
        let result = try shop.run(arguments)
        #expect(result.status == 64, "\(arguments)")
        #expect(result.standardError.hasPrefix("storerules store: "), "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    static let failures: [(arguments: [String], message: String)] = [
        (["purchase", "pellet.huge"], "the catalog has no product 'pellet.huge'"),
        (["purchase", "pellet.box", "--quantity", "11"], "a quantity of 11 is not allowed for 'pellet.box' (1–10 for a consumable, 1 otherwise)"),
        (["purchase", "pass.premium", "--offer", "nope"], "'pass.premium' has no promotional offer 'nope'"),
        (["refund", "123"], "the store issued no transaction 123"),
        (["renew", "--customer", "nobody"], "nobody has no subscription; give --group"),
        (["expire", "--group", "6F3A93AB"], "default has no subscription in group 6F3A93AB"),
        (["approve", "nope"], "there is no Ask to Buy request nope"),
        (["family", "leave"], "default belongs to no family"),
    ]

    @Test(arguments: failures.indices)
    func refusedRequestsExitWithStatus1AndOneLine(index: Int) throws {
        let (arguments, message) = Self.failures[index]
        let shop = try Shop()
        let result = try shop.run(arguments)
        #expect(result.status == 1, "\(arguments)")
        #expect(result.standardError == "storerules store: \(message)\n", "\(arguments)")
        #expect(result.standardOutput.isEmpty)
        #expect((try shop.json("notifications")["notifications"] as? [Any])?.isEmpty == true)
    }

    @Test func aLedgerIsRequiredAndAFolderNeedsACatalog() throws {
        let missing = try CommandRunner.run(["store", "Examples/BackyardBirds", "status"])
        #expect(missing.status == 64)
        #expect(missing.standardError.hasPrefix("storerules store: missing --ledger FILE"))
        let folder = try CommandRunner.policyFolder("return {}")
        let shop = try Shop(folder: folder.path)
        let noCatalog = try shop.run("status")
        #expect(noCatalog.status == 1)
        #expect(noCatalog.standardError == "storerules store: \(folder.path) has no .storekit catalog for the store to sell\n")
    }

    @Test func helpListsTheStoreCommands() throws {
        let help = try CommandRunner.run(["store", "--help"])
        #expect(help.status == 0)
        for command in ["purchase PRODUCT", "approve ID", "advance DURATION", "refund TRANSACTION_ID", "auto-renew on|off",
                        "status", "entitlements", "transactions", "notifications", "certificate"] {
            #expect(help.standardOutput.contains(command), "\(command)")
        }
        #expect(try CommandRunner.run(["--help"]).standardOutput.contains("store"))
    }
}
