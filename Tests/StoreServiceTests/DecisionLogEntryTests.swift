import Foundation
import StoreService
import Testing

/// What one decision-log line holds: the request id, the hook, its inputs and result, the
/// source, the policy version and how long the decision took, and the customer it was for.
@Suite struct DecisionLogEntryTests {
    @Test("a decision's log line has the request id, inputs, result, source, version and duration; one for a customer names them")
    func decisionsAreLoggedWithTheirFields() throws {
        let log = FileManager.default.temporaryDirectory.appending(path: "storerules-decisions-\(UUID().uuidString).jsonl")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        try RouterTestService.test(decisionLog: DecisionLog(handle: try FileHandle(forWritingTo: log))) { service in
            let decided = service.respond("POST", "/v1/decisions/show_merchandising", headers: ["X-Request-Id": "req-42"],
                                          body: #"{"ctx": {}, "args": ["home"]}"#)
            #expect(decided.status == 200)
            _ = try service.respond("POST", "/v1/decisions/features", json: ["customer": "ana"])
            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 2)
            let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(first["request_id"] as? String == "req-42")
            #expect(first["hook"] as? String == "show_merchandising")
            #expect(first["inputs"] as? [String] == ["home"])
            #expect(first["result"] as? Bool == decided.object["result"] as? Bool)
            #expect(first["source"] as? String == "policy")
            #expect(first["policy_version"] as? String == decided.object["policy_version"] as? String)
            #expect(first["duration_ms"] is Double)
            let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
            #expect(second["customer"] as? String == "ana")
        }
    }
}
