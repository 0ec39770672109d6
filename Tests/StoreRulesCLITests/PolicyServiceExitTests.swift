import Foundation
import Testing

/// How `PolicyService` ends and reads its command line.
@Suite struct PolicyServiceExitTests {
    @Test("a clean exit at the end of input closes the ledger: no -wal or -shm file is left beside it")
    func aCleanExitClosesTheLedger() throws {
        let service = try ServiceProcess()
        _ = try service.result(["op": "entitlements", "customer": "ada"])
        #expect(try service.finish() == 0)
        #expect(!FileManager.default.fileExists(atPath: service.ledgerPath + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: service.ledgerPath + "-shm"))
    }

    @Test("a root handed over through a pipe is trusted: data it signed verifies")
    func rootFromAPipe() throws {
        let service = try ServiceProcess(rootFromPipe: true)
        let box = try SignedFixtures.sign(SignedFixtures.consumable(id: "1000", quantity: 1))
        let answer = try service.result(["op": "ingest_transaction", "customer": "ada", "jws": box])
        #expect(answer["outcome"] as? String == "granted")
    }

    @Test("the environment is read in any letter case, and an unknown option suggests the nearest")
    func optionsAreReadLikeTheCommandLineTools() throws {
        let process = Process()
        process.executableURL = ServiceProcess.executable
        process.arguments = [CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds").path,
                             "--ledger", "l.sqlite", "--root", "r.pem", "--bundle-id", "b", "--environment", "sandbox",
                             "--worker", "2"]
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        process.standardInput = Pipe()
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(text.hasPrefix("PolicyService: unknown option '--worker'; did you mean '--workers'?"), "\(text)")
    }
}
