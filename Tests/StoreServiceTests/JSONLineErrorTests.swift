import Foundation
import StoreCore
import Testing

/// Lines the JSON-lines protocol refuses, in process: each gets an error reply with its id (or
/// `null` when none is readable), its kind and a message saying what is wrong, and changes
/// nothing in the ledger.
@Suite struct JSONLineErrorTests {
    typealias JSON = [String: Any]

    @Test func badLinesGetClearErrorsAndChangeNothing() throws {
        let service = try JSONLineTestService()
        let box = BackyardBirdsPayloads.consumable(id: "9000")
        let signed = try JSONLineTestService.sign(box)
        _ = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": signed])
        var tampered = box
        tampered.quantity = 50
        let tamperedJWS = try JSONLineTestService.sign(tampered).split(separator: ".")[0...1].joined(separator: ".") + "." + signed.split(separator: ".")[2]
        var otherApp = BackyardBirdsPayloads.consumable(id: "9001")
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
            (line(110, "ingest_transaction", customer: "ada", jws: try JSONLineTestService.sign(box, by: JSONLineTestService.otherAuthority)), 110,
             "verification", "transaction: the certificate chain does not lead to a trusted root"),
            (line(111, "ingest_transaction", customer: "ada", jws: try JSONLineTestService.sign(otherApp)), 111, "verification",
             "transaction: the bundle identifier is 'com.example.other', not 'com.example.backyardbirds'"),
            (line(112, "ingest_transaction", customer: "bob", jws: signed), 112, "ledger",
             "transaction 9000 belongs to another account: it, or its subscription, is stored for another customer"),
            (line(113, "ingest_notification", customer: nil, jws: signed), 113, "verification", "notification: the bundle identifier is missing"),
        ]
        for testCase in cases {
            let reply = try service.reply(line: testCase.line)
            let error = try #require(reply["error"] as? JSON, "\(testCase.line)")
            #expect(error["kind"] as? String == testCase.kind, "\(testCase.line)")
            switch testCase.id {
            case let id as Int:
                #expect(reply["id"] as? Int == id, "\(testCase.line)")
                #expect((error["message"] as? String)?.hasPrefix(testCase.message) == true, "\(testCase.line): \(error)")
            case let id as String:
                #expect(reply["id"] as? String == id, "\(testCase.line)")
                #expect((error["message"] as? String)?.hasPrefix(testCase.message) == true, "\(testCase.line): \(error)")
            default:
                #expect(reply["id"] is NSNull, "\(testCase.line)")
                #expect(error["message"] as? String == testCase.message, "\(testCase.line): \(error)")
            }
        }
        let after = try service.result(["op": "entitlements", "customer": "ada"])
        #expect(after["balances"] as? [String: Int] == ["pellet": 5])
    }

    /// A request line, as JSON text.
    private func line(_ id: Int, _ op: String, customer: String?, jws: String) -> String {
        var request: [String: Any] = ["id": id, "op": op, "jws": jws]
        if let customer { request["customer"] = customer }
        return String(decoding: try! JSONSerialization.data(withJSONObject: request), as: UTF8.self)
    }
}
