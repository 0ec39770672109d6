import Foundation
import StoreCore
import Testing

/// The `PolicyService` example binary, driven over its JSON-lines protocol.
@Suite struct PolicyServiceTests {
    typealias JSON = [String: Any]

    @Test func storefrontPlansComeFromTheCustomersLedgerState() throws {
        let service = try ServiceProcess()
        let newcomer = try service.result(["op": "storefront", "customer": "wren", "placement": "home"])
        #expect(newcomer["customer_id"] as? String == "wren")
        #expect(newcomer["show_merchandising"] as? Bool == true)
        let newcomerStore = try #require((newcomer["subscription_stores"] as? [JSON])?.first)
        #expect(newcomerStore["current_product_id"] == nil)
        #expect((newcomerStore["plans"] as? [JSON])?.map { $0["id"] as? String } == ["pass.premium", "pass.family", "pass.individual"])

        let family = try SignedFixtures.sign(SignedFixtures.pass(original: "3000", period: 0, of: 1, productID: "pass.family"))
        _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": family])
        let home = try service.result(["op": "storefront", "customer": "ada", "placement": "home"])
        #expect(home["show_merchandising"] as? Bool == false)
        let store = try service.result(["op": "storefront", "customer": "ada"])
        #expect(store["placement"] as? String == "store")
        #expect(store["show_merchandising"] as? Bool == true)
        let pass = try #require((store["subscription_stores"] as? [JSON])?.first)
        #expect(pass["current_product_id"] as? String == "pass.family")
        let plans = try #require(pass["plans"] as? [JSON])
        #expect(plans.map { $0["id"] as? String } == ["pass.premium"])
        #expect(plans.first?["relationship"] as? String == "upgrade")
        #expect((store["status_line"] as? String)?.hasPrefix("Expires ") == true)
    }

    @Test func ingestingATransactionGrantsOnceAndAnswersTheBalances() throws {
        let service = try ServiceProcess()
        let box = try SignedFixtures.sign(SignedFixtures.consumable(id: "1000", quantity: 2))
        let first = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": box])
        #expect(first["transaction_id"] as? String == "1000")
        #expect(first["customer"] as? String == "ada")
        #expect(first["product_id"] as? String == "pellet.box")
        #expect(first["storage"] as? String == "inserted")
        #expect(first["outcome"] as? String == "granted")
        #expect(first["grants"] as? [JSON] as NSArray? == [["item": "pellet", "amount": 10]] as NSArray)
        #expect(first["balances"] as? [String: Int] == ["pellet": 10])

        let again = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": box])
        #expect(again["storage"] as? String == "unchanged")
        #expect(again["outcome"] as? String == "already_finished")
        #expect((again["grants"] as? [JSON])?.isEmpty == true)
        #expect(again["balances"] as? [String: Int] == ["pellet": 10])

        let sampler = try SignedFixtures.sign(SignedFixtures.consumable(id: "1001", productID: "food.sampler"))
        let mixed = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": sampler])
        #expect(mixed["balances"] as? [String: Int] == ["pellet": 12, "nectar": 2])
    }

    @Test func notificationsAreVerifiedWithTheirNestedDataAndProcessedOnce() throws {
        let service = try ServiceProcess()
        let purchase = try SignedFixtures.sign(SignedFixtures.pass(original: "4000", period: 0, of: 2))
        _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": purchase])

        let renewal = try SignedFixtures.sign(SignedFixtures.pass(original: "4000", period: 1, of: 2))
        let renewalInfo = try SignedFixtures.sign(SignedFixtures.renewalInfo(original: "4000", autoRenew: true))
        let didRenew = try SignedFixtures.sign(SignedFixtures.notification(
            type: .didRenew, uuid: "0c9b7a4e-0000-4000-8000-000000004001", signedTransaction: renewal, signedRenewalInfo: renewalInfo))
        let processed = try service.result(["op": "ingest_notification", "jws": didRenew])
        #expect(processed["status"] as? String == "processed")
        #expect(processed["notification_type"] as? String == "DID_RENEW")
        #expect(processed["notification_uuid"] as? String == "0c9b7a4e-0000-4000-8000-000000004001")
        #expect(processed["renewal_info"] as? String == "inserted")
        let transaction = try #require(processed["transaction"] as? JSON)
        #expect(transaction["transaction_id"] as? String == "4000-1")
        #expect(transaction["customer"] as? String == "ada")
        #expect(transaction["outcome"] as? String == "granted")

        let redelivered = try service.result(["op": "ingest_notification", "jws": didRenew])
        #expect(redelivered["status"] as? String == "already_processed")
        #expect(redelivered["transaction"] == nil)

        let subscription = try #require((try service.result(["op": "entitlements", "customer": "ada"])["subscriptions"] as? JSON)?["6F3A93AB"] as? JSON)
        #expect(subscription["will_auto_renew"] as? Bool == true)

        let box = SignedFixtures.consumable(id: "4100", quantity: 3)
        _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": try SignedFixtures.sign(box)])
        let refunded = SignedFixtures.consumable(
            id: "4100", quantity: 3, revokedAt: SignedFixtures.now.addingTimeInterval(1), signedAt: SignedFixtures.now.addingTimeInterval(2))
        let refund = try SignedFixtures.sign(SignedFixtures.notification(type: .refund, signedTransaction: try SignedFixtures.sign(refunded)))
        let reversed = try #require(try service.result(["op": "ingest_notification", "jws": refund])["transaction"] as? JSON)
        #expect(reversed["outcome"] as? String == "revoked")
        #expect(reversed["storage"] as? String == "updated")
        #expect(reversed["grants"] as? [JSON] as NSArray? == [["item": "pellet", "amount": 15]] as NSArray)
        #expect(reversed["balances"] as? [String: Int] == [:])
    }

    @Test func aNotificationWhoseNestedTransactionIsUntrustedChangesNothing() throws {
        let service = try ServiceProcess()
        let forged = try SignedFixtures.sign(SignedFixtures.consumable(id: "5000"), by: ServiceProcess.otherAuthority)
        let notification = SignedFixtures.notification(type: .oneTimeCharge, uuid: "5d000000-0000-4000-8000-000000005000", signedTransaction: forged)
        let reply = try service.request(["op": "ingest_notification", "jws": try SignedFixtures.sign(notification), "customer": "ada"])
        let error = try #require(reply["error"] as? JSON)
        #expect(error["kind"] as? String == "verification")
        #expect((error["message"] as? String)?.hasPrefix("signedTransactionInfo: the certificate chain does not lead to a trusted root") == true)
        #expect(try service.result(["op": "entitlements", "customer": "ada"])["balances"] as? [String: Int] == [:])

        let genuine = SignedFixtures.notification(
            type: .oneTimeCharge, uuid: "5d000000-0000-4000-8000-000000005000",
            signedTransaction: try SignedFixtures.sign(SignedFixtures.consumable(id: "5000")))
        let retried = try service.result(["op": "ingest_notification", "jws": try SignedFixtures.sign(genuine), "customer": "ada"])
        #expect(retried["status"] as? String == "processed")
        #expect((retried["transaction"] as? JSON)?["balances"] as? [String: Int] == ["pellet": 5])
    }

    @Test func entitlementsListProductsSubscriptionsBalancesAndFeatures() throws {
        let service = try ServiceProcess()
        for jws in [
            try SignedFixtures.sign(SignedFixtures.pass(original: "6000", period: 0, of: 1)),
            try SignedFixtures.sign(SignedFixtures.consumable(id: "6001", productID: "feeder.golden", type: .nonConsumable)),
            try SignedFixtures.sign(SignedFixtures.consumable(id: "6002")),
        ] {
            _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": jws])
        }
        let ada = try service.result(["op": "entitlements", "customer": "ada"])
        #expect(ada["customer"] as? String == "ada")
        #expect(ada["entitlements"] as? [String] == ["feeder.golden", "pass.premium"])
        #expect(ada["balances"] as? [String: Int] == ["pellet": 5])
        #expect(ada["features"] as? [String] == ["unlimited_backyards", "decorations", "family_sharing", "rare_birds", "golden_feeder"])
        #expect(ada["features_fallback"] == nil)
        #expect((ada["unfinished_transactions"] as? [String])?.isEmpty == true)
        #expect((ada["policy_version"] as? String)?.count == 16)
        let pass = try #require((ada["subscriptions"] as? JSON)?["6F3A93AB"] as? JSON)
        #expect(pass["product_id"] as? String == "pass.premium")
        #expect(pass["state"] as? String == "subscribed")
        #expect(pass["group_level"] as? Int == 1)
        #expect(pass["intro_eligible"] as? Bool == false)

        let stranger = try service.result(["op": "entitlements", "customer": "stranger"])
        #expect((stranger["entitlements"] as? [String])?.isEmpty == true)
        #expect((stranger["subscriptions"] as? JSON)?.isEmpty == true)
        #expect((stranger["features"] as? [String])?.isEmpty == true)
    }

    @Test func reloadSwapsTheEditedPolicyInWithoutARestart() throws {
        let service = try ServiceProcess()
        let before = try service.result(["op": "entitlements", "customer": "ada"])["policy_version"] as? String
        let edited = try service.policy().replacingOccurrences(
            of: #"["pellet.box"]    = { { item = "pellet", amount = 5 } }"#, with: #"["pellet.box"]    = { { item = "pellet", amount = 7 } }"#)
        #expect(edited != (try service.policy()))
        try service.writePolicy(edited)

        let reload = try service.result(["op": "reload"])
        #expect(reload["previous_version"] as? String == before)
        let version = try #require(reload["version"] as? String)
        #expect(version != before)
        let granted = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": try SignedFixtures.sign(SignedFixtures.consumable(id: "7000"))])
        #expect(granted["balances"] as? [String: Int] == ["pellet": 7])
        #expect(try service.result(["op": "storefront", "customer": "ada"])["policy_version"] as? String == version)
    }

    @Test func aReloadThatFailsKeepsTheOldPolicyServing() throws {
        let service = try ServiceProcess()
        let serving = try #require(try service.result(["op": "entitlements", "customer": "ada"])["policy_version"] as? String)
        try service.writePolicy("local policy = {\nfunction policy.features(ctx) return {} end\n")

        let reply = try service.request(["op": "reload"])
        let error = try #require(reply["error"] as? JSON)
        #expect(error["kind"] as? String == "reload")
        #expect((error["message"] as? String)?.contains("policy.lua") == true)
        #expect((error["message"] as? String)?.hasSuffix("version \(serving) keeps serving") == true)

        let granted = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": try SignedFixtures.sign(SignedFixtures.consumable(id: "8000"))])
        #expect(granted["outcome"] as? String == "granted")
        #expect(granted["balances"] as? [String: Int] == ["pellet": 5])
        #expect(try service.result(["op": "storefront", "customer": "ada"])["policy_version"] as? String == serving)
    }

    @Test func aGrantHookThatFailsLeavesTheTransactionUnfinished() throws {
        let service = try ServiceProcess()
        try service.writePolicy("""
            local policy = {}
            function policy.grant(ctx, tx, product) error("the food rules are being rewritten") end
            return policy
            """)
        _ = try service.result(["op": "reload"])
        let box = try SignedFixtures.sign(SignedFixtures.consumable(id: "8100"))
        let unfinished = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": box])
        #expect(unfinished["outcome"] as? String == "unfinished")
        #expect((unfinished["reason"] as? String)?.contains("the food rules are being rewritten") == true)
        #expect(unfinished["balances"] as? [String: Int] == [:])
        #expect(try service.result(["op": "entitlements", "customer": "ada"])["unfinished_transactions"] as? [String] == ["8100"])
    }

    @Test func badLinesGetClearErrorsAndTheServiceGoesOn() throws {
        let service = try ServiceProcess()
        let box = SignedFixtures.consumable(id: "9000")
        let signed = try SignedFixtures.sign(box)
        _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": signed])
        var tampered = box
        tampered.quantity = 50
        let tamperedJWS = try SignedFixtures.sign(tampered).split(separator: ".")[0...1].joined(separator: ".") + "." + signed.split(separator: ".")[2]
        var otherApp = SignedFixtures.consumable(id: "9001")
        otherApp.bundleId = "com.example.other"

        let cases: [(line: String, id: Any?, kind: String, message: String)] = [
            ("not json", nil, "bad_request", "the line is not a JSON object"),
            ("[1, 2]", nil, "bad_request", "the line is not a JSON object"),
            (#"{"op": "reload"}"#, nil, "bad_request", #"every request needs an "id" (a string or an integer)"#),
            (#"{"id": true, "op": "reload"}"#, nil, "bad_request", #""id" must be a string or an integer"#),
            (#"{"id": 101}"#, 101, "bad_request", #"missing "op": one of storefront, ingest_transaction"#),
            (#"{"id": 102, "op": "refund"}"#, 102, "bad_request", #"unknown op "refund""#),
            (#"{"id": 103, "op": "storefront"}"#, 103, "bad_request", #"storefront needs "customer": a non-empty string"#),
            (#"{"id": "s-104", "op": "storefront", "customer": 7}"#, "s-104", "bad_request", #""customer" must be a string"#),
            (#"{"id": 105, "op": "entitlements", "customer_id": "ada"}"#, 105, "bad_request", #"unknown field "customer_id"; entitlements takes customer"#),
            (#"{"id": 106, "op": "reload", "force": true}"#, 106, "bad_request", #"unknown field "force"; reload takes no other fields"#),
            (#"{"id": 107, "op": "ingest_notification", "jws": "a.b.c", "customer": ""}"#, 107, "bad_request", #""customer", when given, must not be empty"#),
            (#"{"id": 108, "op": "ingest_transaction", "customer": "ada", "jws": "abc"}"#, 108, "verification", "transaction: malformed JWS"),
            (line(109, "ingest_transaction", customer: "ada", jws: tamperedJWS), 109, "verification",
             "transaction: the signature does not verify with the leaf certificate's key"),
            (line(110, "ingest_transaction", customer: "ada", jws: try SignedFixtures.sign(box, by: ServiceProcess.otherAuthority)), 110,
             "verification", "transaction: the certificate chain does not lead to a trusted root"),
            (line(111, "ingest_transaction", customer: "ada", jws: try SignedFixtures.sign(otherApp)), 111, "verification",
             "transaction: the bundle identifier is 'com.example.other', not 'com.example.backyardbirds'"),
            (line(112, "ingest_transaction", customer: "bob", jws: signed), 112, "ledger",
             "transaction 9000 belongs to another account: it, or its subscription, is stored for another customer"),
            (line(113, "ingest_notification", customer: nil, jws: signed), 113, "verification", "notification: the bundle identifier is missing"),
        ]
        for testCase in cases {
            service.send(line: testCase.line)
            service.send(line: "   ")
            if let id = testCase.id {
                let error = try #require(try service.reply(id)["error"] as? JSON, "\(testCase.line)")
                #expect(error["kind"] as? String == testCase.kind, "\(testCase.line)")
                #expect((error["message"] as? String)?.hasPrefix(testCase.message) == true, "\(testCase.line): \(error)")
            }
        }
        let after = try service.result(["op": "entitlements", "customer": "ada"])
        #expect(after["balances"] as? [String: Int] == ["pellet": 5])
        #expect(service.isRunning)

        let lines = service.outputLines
        let withoutID = try lines.compactMap { line -> JSON? in
            let reply = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? JSON)
            return reply["id"] is NSNull ? reply : nil
        }
        #expect(lines.count == cases.count + 2)
        #expect(withoutID.compactMap { ($0["error"] as? JSON)?["message"] as? String }.sorted()
                == cases.filter { $0.id == nil }.map(\.message).sorted())
        #expect(try service.finish() == 0)
    }

    @Test func concurrentRequestsFromManyCustomersEndWithExactBalances() throws {
        let service = try ServiceProcess(workers: 4)
        var generator = SystemRandomNumberGenerator()
        var expected: [String: Int] = [:]
        var lines: [(op: String, line: [String: Any])] = []
        for customer in (1...60).map({ "watcher-\($0)" }) {
            for purchase in 1...4 {
                let quantity = Int32.random(in: 1...3, using: &generator)
                let id = "\(customer)-\(purchase)"
                expected[customer, default: 0] += 5 * Int(quantity)
                let jws = try SignedFixtures.sign(SignedFixtures.consumable(id: id, quantity: quantity))
                let request: [String: Any] = ["op": "ingest_transaction", "customer": customer, "jws": jws]
                lines.append(("ingest", request))
                lines.append(("ingest", request))
            }
            lines.append(("read", ["op": "entitlements", "customer": customer]))
            lines.append(("read", ["op": "storefront", "customer": customer, "placement": "home"]))
        }
        // Pairs of the same delivery stay side by side half the time, so two workers take them
        // at once; the other half are spread over the stream.
        var stream: [(op: String, line: [String: Any])] = []
        var spread: [(op: String, line: [String: Any])] = []
        for (index, entry) in lines.enumerated() {
            if entry.op == "ingest", index % 4 >= 2 { spread.append(entry) } else { stream.append(entry) }
        }
        for entry in spread.shuffled(using: &generator) {
            stream.insert(entry, at: Int.random(in: 0...stream.count, using: &generator))
        }

        let ids = try stream.map { try service.send($0.line) }
        var outcomes: [String: Int] = [:]
        for (id, entry) in zip(ids, stream) {
            let reply = try service.reply(id)
            #expect(reply["error"] == nil, "\(reply)")
            if entry.op == "ingest", let outcome = (reply["result"] as? JSON)?["outcome"] as? String {
                outcomes[outcome, default: 0] += 1
            }
        }
        #expect(outcomes == ["granted": 240, "already_finished": 240])
        for (customer, pellets) in expected {
            let state = try service.result(["op": "entitlements", "customer": customer])
            #expect(state["balances"] as? [String: Int] == ["pellet": pellets], "\(customer)")
        }
        for line in service.outputLines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is JSON, "an interleaved line: \(line.prefix(80))")
        }
        #expect(try service.finish() == 0)
    }

    @Test(arguments: [
        (["--ledger", "l.sqlite", "--bundle-id", "b", "--environment", "Sandbox"], Int32(64), "missing --root PEM"),
        (["--ledger", "l.sqlite", "--root", "r.pem", "--bundle-id", "b", "--environment", "Staging"], 64, "--environment must be"),
        (["--ledger", "l.sqlite", "--root", "r.pem", "--bundle-id", "b", "--environment", "Sandbox", "--workers", "0"], 64, "--workers must be"),
        (["--ledger", "l.sqlite", "--root", "missing.pem", "--bundle-id", "b", "--environment", "Sandbox"], 1, "the root missing.pem"),
    ])
    func startupProblemsAreOneLineAndAStatus(arguments: [String], status: Int32, message: String) throws {
        let process = Process()
        process.executableURL = ServiceProcess.executable
        process.arguments = [CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds").path] + arguments
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        process.standardInput = Pipe()
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        #expect(text.hasPrefix("PolicyService: \(message)"), "\(text)")
    }

    /// A request line, as JSON text.
    private func line(_ id: Int, _ op: String, customer: String?, jws: String) -> String {
        var request: [String: Any] = ["id": id, "op": op, "jws": jws]
        if let customer { request["customer"] = customer }
        return String(decoding: try! JSONSerialization.data(withJSONObject: request), as: UTF8.self)
    }
}
