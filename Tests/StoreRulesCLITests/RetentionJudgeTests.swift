import AppleLibraryCrossCheck
import Foundation
import TestPrerequisites
import Testing

/// Apple's own Python library judges a Retention Messaging exchange: its `SignedDataVerifier`
/// verifies the request the local store signed, its model reads StoreRules' answer, and the
/// promotional offer's V2 signature verifies with the key's public half for Apple's audience.
@Suite(.enabled(if: TestPrerequisite.runs(AppleLibrary.isInstalled), "needs .venv: run scripts/crosscheck/setup.sh"))
struct RetentionJudgeTests {
    @Test func applesLibraryReadsTheRequestAndTheSignedOffer() throws {
        let store = try StoreAPIProcess()
        try store.start()
        let rootPEM = try String(contentsOfFile: store.rootPath, encoding: .utf8)
        let service = try ServeProcess(ledger: store.directory.appending(path: "service.sqlite").path,
                                       extra: ConsumptionLoopTests.clientOptions(store), rootPEM: rootPEM)
        defer { _ = service.terminate() }
        try store.store(["settings", "--retention-url", "\(service.baseURL.absoluteString)/v1/apple/retention"])
        let transactionID = try store.buy("pass.premium")
        let screen = try store.storeJSON(["cancel-screen", transactionID])
        let exchange: [String: Any] = [
            "signed_payload": screen["signed_payload"] as? String ?? "", "root_pem_path": store.rootPath,
            "bundle_id": StoreAPIProcess.bundleID, "answer": screen["answer"] ?? [:],
            "private_key_path": store.key["private_key_path"] ?? "", "key_id": store.key["key_id"] ?? "",
            "issuer_id": store.key["issuer_id"] ?? "",
        ]
        let path = store.directory.appending(path: "exchange.json").path
        try JSONSerialization.data(withJSONObject: exchange).write(to: URL(fileURLWithPath: path))
        let judged = try AppleLibrary.runScript("scripts/crosscheck/retention_judge.py", arguments: [path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(judged.utf8)) as? [String: Any], "\(judged)")

        let request = try #require(report["request"] as? [String: Any])
        #expect(request["originalTransactionId"] as? String == transactionID)
        #expect(request["productId"] as? String == "pass.premium")
        #expect(request["environment"] as? String == "Sandbox")
        #expect((request["requestIdentifier"] as? String)?.count == 36)
        #expect(report["answer_fields"] as? [String] == ["promotionalOffer"])
        #expect(report["message"] as? String == "4a9d6c2b-1e8f-4b7a-9c3d-5e6f7a8b9c0d")
        let header = try #require(report["offer_header"] as? [String: Any])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == store.key["key_id"])
        #expect(header["typ"] as? String == "JWT")
        let claims = try #require(report["offer_claims"] as? [String: Any])
        #expect(claims["bid"] as? String == StoreAPIProcess.bundleID)
        #expect(claims["productId"] as? String == "pass.premium")
        #expect(claims["offerIdentifier"] as? String == "premium.three.months")
        #expect(claims["transactionId"] as? String == transactionID)
        #expect((claims["nonce"] as? String).map { $0 == $0.lowercased() && UUID(uuidString: $0) != nil } == true)
        #expect(claims["iat"] as? Int != nil)
    }
}
