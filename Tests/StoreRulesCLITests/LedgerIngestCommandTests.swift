import Foundation
import StoreCore
import SQLiteLedger
import Testing

/// `storerules ledger ingest`: one answer line per input line, bad lines reported and skipped.
@Suite("storerules ledger ingest")
struct LedgerIngestCommandTests {
    let workspace: LedgerWorkspace
    let lines: [String]

    /// Two signed transactions, a notification's signedPayload, Apple's request body, a JWS
    /// whose payload was swapped under another's signature, and a line that is no JSON.
    init() throws {
        workspace = try LedgerWorkspace()
        func signed(_ id: String) throws -> String { try SignedFixtures.sign(SignedFixtures.consumable(id: id)) }
        let notification = try SignedFixtures.sign(SignedFixtures.notification(
            type: .oneTimeCharge, signedTransaction: try signed("ingest-3")))
        let body = try SignedFixtures.sign(SignedFixtures.notification(type: .oneTimeCharge, signedTransaction: try signed("ingest-4")))
        let genuine = try signed("ingest-5").split(separator: ".")
        let other = try signed("ingest-6").split(separator: ".")
        let tampered = [other[0], other[1], genuine[2]].joined(separator: ".")
        lines = [try signed("ingest-1"), try signed("ingest-2"), notification,
                 String(decoding: try JSONSerialization.data(withJSONObject: ["signedPayload": body]), as: UTF8.self),
                 tampered, "this is not a signed payload"]
    }

    @Test("Each line gets one answer line: the good ones granted, the bad ones an error; the exit status is 1")
    func mixedFile() throws {
        let ledger = workspace.sqliteLedger()
        let result = try workspace.ingest(try workspace.file(lines), ledger: ledger, customer: "ada")
        #expect(result.status == 1)
        let answers = try LedgerWorkspace.objects(result.standardOutput)
        try #require(answers.count == 6, "\(result.standardOutput)")
        #expect(answers.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6])
        #expect(answers[0...3].map { $0["outcome"] as? String } == Array(repeating: "granted", count: 4))
        #expect(answers[0...3].map { $0["customer"] as? String } == Array(repeating: "ada", count: 4))
        #expect(answers[0]["transaction_id"] as? String == "ingest-1")
        #expect(answers[2]["notification_uuid"] is String)
        #expect((answers[3]["grants"] as? [[String: Any]])?.first?["amount"] as? Int == 5)
        #expect((answers[4]["error"] as? [String: Any])?["kind"] as? String == "verification")
        #expect((answers[5]["error"] as? [String: Any])?["kind"] as? String == "bad_request")
        let stored = try Ledger(path: ledger)
        #expect(try stored.transaction(id: "ingest-5") == nil)
        #expect(try stored.transaction(id: "ingest-6") == nil)
        #expect(try stored.balances(customerID: "ada") == ["pellet": 20])
    }

    @Test("The same file again grants nothing: its transactions are already finished, its notifications already processed")
    func sameFileTwice() throws {
        let ledger = workspace.sqliteLedger()
        let path = try workspace.file(lines)
        _ = try workspace.ingest(path, ledger: ledger, customer: "ada")
        let again = try workspace.ingest(path, ledger: ledger, customer: "ada")
        let answers = try LedgerWorkspace.objects(again.standardOutput)
        try #require(answers.count == 6, "\(again.standardOutput)")
        #expect(answers[0...3].map { $0["outcome"] as? String }
                == ["already_finished", "already_finished", "already_processed", "already_processed"])
        #expect(answers[4]["error"] != nil && answers[5]["error"] != nil)
        #expect(try LedgerWorkspace.balances(of: "ada", ledger: ledger) == ["pellet": 20])
    }

    @Test("A signed transaction without --customer is an error line; a notification finds its customer in the ledger")
    func transactionNeedsCustomer() throws {
        let ledger = workspace.sqliteLedger()
        _ = try workspace.ingest(try workspace.file([lines[0]]), ledger: ledger, customer: "ada")
        let renewal = try SignedFixtures.sign(SignedFixtures.notification(
            type: .oneTimeCharge, signedTransaction: try SignedFixtures.sign(SignedFixtures.consumable(id: "ingest-1"))))
        let result = try workspace.ingest(try workspace.file([lines[1], renewal]), ledger: ledger)
        #expect(result.status == 1)
        let answers = try LedgerWorkspace.objects(result.standardOutput)
        try #require(answers.count == 2, "\(result.standardOutput)")
        #expect((answers[0]["error"] as? [String: Any])?["message"] as? String == "a signed transaction needs --customer")
        #expect(answers[1]["outcome"] as? String == "already_finished")
        #expect(answers[1]["customer"] as? String == "ada")
    }

    @Test("A notification for a customer not known yet is kept, and ledger retry processes it once the customer is known")
    func pendingNotificationIsResolvedByRetry() throws {
        let ledger = workspace.sqliteLedger()
        let purchase = try SignedFixtures.sign(SignedFixtures.consumable(id: "ingest-7"))
        let early = try SignedFixtures.sign(SignedFixtures.notification(type: .oneTimeCharge, uuid: "early-7", signedTransaction: purchase))
        let kept = try workspace.ingest(try workspace.file([early]), ledger: ledger)
        #expect(kept.status == 0, "\(kept.standardOutput)")
        #expect(try LedgerWorkspace.objects(kept.standardOutput).first?["outcome"] as? String == "pending")
        #expect(try Ledger(path: ledger).transaction(id: "ingest-7") == nil)

        var later = SignedFixtures.consumable(id: "ingest-8")
        later.originalTransactionId = "ingest-7"
        _ = try workspace.ingest(try workspace.file([try SignedFixtures.sign(later)]), ledger: ledger, customer: "ada")
        let retried = try LedgerWorkspace.ledger("retry", LedgerWorkspace.folder, "--ledger", ledger)
        #expect(retried.status == 0, "\(retried.standardError)")
        let answers = try LedgerWorkspace.objects(retried.standardOutput)
        #expect(answers.map { $0["transaction_id"] as? String } == ["ingest-7"])
        #expect(answers.first?["outcome"] as? String == "granted")
        #expect(try Ledger(path: ledger).isNotificationProcessed("early-7"))
        #expect(try LedgerWorkspace.balances(of: "ada", ledger: ledger) == ["pellet": 10])
    }

    @Test("Lines come from standard input without FILE")
    func standardInput() throws {
        let result = try CommandRunner.run(
            ["ledger", "ingest", LedgerWorkspace.folder, "--ledger", workspace.sqliteLedger(), "--root", workspace.rootPath,
             "--bundle-id", ServiceProcess.bundleId, "--environment", "Sandbox", "--customer", "ada"],
            input: lines[0] + "\n\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try LedgerWorkspace.objects(result.standardOutput).map { $0["outcome"] as? String } == ["granted"])
    }
}
