import Foundation
import Testing

/// `storerules appstore` against a local store's `api` over real HTTP: the client's options from
/// the command line and from the environment, pages followed, Apple's errors shown.
@Suite struct AppStoreCommandTests {
    static func options(_ store: StoreAPIProcess, key: Bool = true) -> [String] {
        ["--bundle-id", StoreAPIProcess.bundleID, "--environment", "Sandbox", "--root", store.rootPath, "--app-store-url", store.baseURL]
            + (key ? ["--app-store-key", store.key["private_key_path"] ?? "", "--app-store-key-id", store.key["key_id"] ?? "",
                      "--app-store-issuer-id", store.key["issuer_id"] ?? ""] : [])
    }

    @Test func historyFollowsEveryPageOverHTTP() throws {
        let store = try StoreAPIProcess()
        var ids: [String] = []
        for _ in 0..<21 { ids.append(try store.buy("pellet.single")) }
        ids.append(try store.buy("pellet.box"))
        try store.start()
        let result = try CommandRunner.run(["appstore", "history", ids[0], "--json"] + Self.options(store))
        #expect(result.status == 0, "\(result.standardError)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(answer["pages"] as? Int == 2)
        let transactions = answer["transactions"] as? [[String: Any]] ?? []
        #expect(transactions.compactMap { ($0["transaction"] as? [String: Any])?["transactionId"] as? String } == ids)
        let filtered = try CommandRunner.run(["appstore", "history", ids[0], "--product", "pellet.box", "--product", "nectar.cup",
                                              "--type", "consumable"] + Self.options(store))
        #expect(filtered.status == 0, "\(filtered.standardError)")
        #expect(filtered.standardOutput.contains("\(ids[21])  pellet.box"))
        #expect(filtered.standardOutput.contains("1 transactions in 1 pages"))
    }

    @Test func theKeyComesFromTheEnvironmentAndIsNeverPrinted() throws {
        let store = try StoreAPIProcess()
        let id = try store.buy("pass.premium")
        try store.start()
        let environment = ["STORERULES_APP_STORE_KEY": store.key["private_key_path"] ?? "",
                           "STORERULES_APP_STORE_KEY_ID": store.key["key_id"] ?? "",
                           "STORERULES_APP_STORE_ISSUER_ID": store.key["issuer_id"] ?? ""]
        let result = try CommandRunner.run(["appstore", "statuses", id] + Self.options(store, key: false), environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\(id)  active  pass.premium  renews to pass.premium"))
        let pem = try String(contentsOfFile: store.key["private_key_path"] ?? "", encoding: .utf8)
        let body = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? "unlikely"
        #expect(!result.standardOutput.contains(body) && !result.standardError.contains(body))
        let missing = try CommandRunner.run(["appstore", "statuses", id] + Self.options(store, key: false))
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("--app-store-key FILE (or STORERULES_APP_STORE_KEY)"))
    }

    @Test func applesErrorIsShownWithItsCode() throws {
        let store = try StoreAPIProcess()
        try store.buy("pellet.box")
        try store.start()
        let result = try CommandRunner.run(["appstore", "transaction", "999"] + Self.options(store))
        #expect(result.status == 1)
        #expect(result.standardError.contains("404, error 4040010 (transactionIdNotFound): no transaction 999"))
    }

    @Test func anExtensionAndALookupRunFromTheCommandLine() throws {
        let store = try StoreAPIProcess()
        let premium = try store.buy("pass.premium")
        let ledger = try store.storeJSON(["transactions"])["transactions"] as? [[String: Any]] ?? []
        let order = try #require(ledger.first?["order_id"] as? String)
        try store.start()
        let lookup = try CommandRunner.run(["appstore", "lookup", order] + Self.options(store))
        #expect(lookup.status == 0, "\(lookup.standardError)")
        #expect(lookup.standardOutput.contains("\(premium)  pass.premium"))
        func renews() throws -> Int64? {
            let statuses = try CommandRunner.run(["appstore", "statuses", premium, "--json"] + Self.options(store))
            let answer = try JSONSerialization.jsonObject(with: Data(statuses.standardOutput.utf8)) as? [String: Any]
            let subscription = ((answer?["groups"] as? [[String: Any]])?.first?["subscriptions"] as? [[String: Any]])?.first
            return (subscription?["transaction"] as? [String: Any])?["expiresDate"] as? Int64
        }
        let bought = try #require(try renews())
        let day: Int64 = 86_400_000
        let extended = try CommandRunner.run(["appstore", "extend", premium, "--days", "3", "--reason", "outage", "--request-id", "r1"]
                                             + Self.options(store))
        #expect(extended.status == 0, "\(extended.standardError)")
        #expect(extended.standardOutput.hasPrefix("Extended \(premium): renews "))
        #expect(try renews() == bought + 3 * day, "--days 3 moved the renewal by 3 days")
        let mass = try CommandRunner.run(["appstore", "extend", "--product", "pass.premium", "--days", "1", "--reason", "1",
                                          "--request-id", "m1"] + Self.options(store))
        #expect(mass.status == 0, "\(mass.standardError)")
        #expect(mass.standardOutput.contains("Mass extension m1: complete, 1 extended, 0 failed."))
        #expect(try renews() == bought + 4 * day, "and the mass extension's --days 1 by one more")
    }

    @Test func anExtensionMovesTheRenewalDateByItsDaysAndARepeatedOnePrintsTheRealDate() throws {
        let store = try StoreAPIProcess()
        let premium = try store.buy("pass.premium")
        try store.start()
        let statuses = try CommandRunner.run(["appstore", "statuses", premium, "--json"] + Self.options(store))
        let groups = try #require(try JSONSerialization.jsonObject(with: Data(statuses.standardOutput.utf8)) as? [String: Any])["groups"]
        let subscription = try #require((groups as? [[String: Any]])?.first?["subscriptions"] as? [[String: Any]]).first
        let bought = try #require((subscription?["transaction"] as? [String: Any])?["expiresDate"] as? Int64, "\(statuses.standardOutput)")
        let day: Int64 = 86_400_000
        func extend(_ request: String, days: Int, json: Bool) throws -> String {
            let result = try CommandRunner.run(["appstore", "extend", premium, "--days", "\(days)", "--reason", "outage", "--request-id", request]
                                               + (json ? ["--json"] : []) + Self.options(store))
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput
        }
        let first = try #require(try JSONSerialization.jsonObject(with: Data(try extend("r1", days: 3, json: true).utf8)) as? [String: Any])
        #expect(first["effective_date"] as? Int64 == bought + 3 * day && first["renewal_date"] as? Int64 == bought + 3 * day, "\(first)")
        let iso = { (milliseconds: Int64) in Date(timeIntervalSince1970: Double(milliseconds) / 1000).ISO8601Format() }
        #expect(try extend("r2", days: 5, json: false) == "Extended \(premium): renews \(iso(bought + 8 * day)).\n")
        #expect(try extend("r1", days: 3, json: false)
                == "Extended \(premium) (request r1 moved it to \(iso(bought + 3 * day)) when first sent): renews \(iso(bought + 8 * day)).\n")
        let repeated = try #require(try JSONSerialization.jsonObject(with: Data(try extend("r1", days: 3, json: true).utf8)) as? [String: Any])
        #expect(repeated["renewal_date"] as? Int64 == bought + 8 * day, "\(repeated)")
    }

    @Test func aRefundRequestIsAnsweredWithConsumptionInformationThenDeclined() throws {
        let store = try StoreAPIProcess()
        let box = try store.buy("pellet.box")
        let asked = try store.storeJSON(["refund-request", box, "--reason", "unintended-purchase"])
        let notifications = asked["notifications"] as? [[String: Any]] ?? []
        #expect(notifications.map { $0["notification_type"] as? String } == ["CONSUMPTION_REQUEST"], "\(asked)")
        try store.start()
        let answered = try CommandRunner.run(["appstore", "consumption", box, "--delivery-status", "delivered", "--consumed", "100000",
                                              "--preference", "decline"] + Self.options(store))
        #expect(answered.status == 0, "\(answered.standardError)")
        #expect(answered.standardOutput.contains("Consumption information for \(box) sent."))
        let received = try store.storeJSON(["consumption", box])["consumption"] as? [[String: Any]] ?? []
        let body = try #require(received.first?["body"] as? [String: Any])
        #expect(body["deliveryStatus"] as? String == "DELIVERED" && body["consumptionPercentage"] as? Int == 100_000)
        #expect(body["refundPreference"] as? String == "DECLINE" && body["customerConsented"] as? Bool == true)
        let declined = try store.storeJSON(["refund-decline", box])["notifications"] as? [[String: Any]] ?? []
        #expect(declined.map { $0["notification_type"] as? String } == ["REFUND_DECLINED"])
    }
}
