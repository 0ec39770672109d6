import AppStoreServerAPI
import Foundation
import StoreCore
import StoreService
import StoreTesting
import Testing

/// The decision route and the retention route record their decisions the one way: counted by
/// hook and source, and one decision-log entry each with the request's id.
@Suite struct DecisionRecordingRouteTests {
    /// The decision log's entries, each a JSON object.
    private static func entries(in file: URL) throws -> [[String: Any]] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func aDecisionOnACustomerIsCountedAndLoggedWithTheRequestID() throws {
        let logFile = FileManager.default.temporaryDirectory.appending(path: "storerules-decisions-\(UUID().uuidString).jsonl")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: logFile) }
        try RouterTestService.test(decisionLog: DecisionLog(handle: try FileHandle(forWritingTo: logFile))) { service in
            _ = service.respond("PUT", "/v1/customers/ana")
            let response = service.respond("POST", "/v1/decisions/features", headers: ["X-Request-Id": "decide-1"],
                                           body: #"{"customer": "ana"}"#)
            #expect(response.status == 200, "\(response.bodyText)")
            #expect(response.headers["X-Request-Id"] == "decide-1")
            let entry = try #require(try Self.entries(in: logFile).first)
            #expect(entry["request_id"] as? String == "decide-1")
            #expect(entry["customer"] as? String == "ana")
            #expect(entry["hook"] as? String == "features")
            #expect(entry["source"] as? String == response.object["source"] as? String)
            let metrics = service.router.metrics.exposition(unfinishedTransactions: nil, policyVersion: "v")
            #expect(metrics.contains(#"storerules_decisions_total{hook="features",source="\#(entry["source"] as? String ?? "")"} 1"#), "\(metrics)")
        }
    }

    @Test func aCancelScreenForATransactionTheLedgerDoesNotKnowIsDecidedForNobodyAndLogged() throws {
        let logFile = FileManager.default.temporaryDirectory.appending(path: "storerules-decisions-\(UUID().uuidString).jsonl")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: logFile) }
        try RouterTestService.test(decisionLog: DecisionLog(handle: try FileHandle(forWritingTo: logFile))) { service in
            let request = DecodedRealtimeRequestBody(originalTransactionId: "2000000000000001", productId: "pass.premium", userLocale: "en_US",
                                                     requestIdentifier: UUID().uuidString.lowercased(), signedDate: Date(), environment: .sandbox)
            let body = #"{"signedPayload": "\#(try service.authority.sign(request))"}"#
            let response = service.respond("POST", "/v1/apple/retention", headers: ["X-Request-Id": "cancel-1"], key: nil, body: body)
            #expect(response.status == 200, "\(response.bodyText)")
            let entry = try #require(try Self.entries(in: logFile).first)
            #expect(entry["request_id"] as? String == "cancel-1")
            #expect(entry["customer"] == nil, "no customer owns the transaction")
            #expect(entry["hook"] as? String == "retention_message")
            let metrics = service.router.metrics.exposition(unfinishedTransactions: nil, policyVersion: "v")
            #expect(metrics.contains(#"storerules_verifications_total{kind="retention",status="OK"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"storerules_decisions_total{hook="retention_message""#), "\(metrics)")
        }
    }
}
