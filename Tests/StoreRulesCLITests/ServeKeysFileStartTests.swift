import Foundation
import Testing
import TestPrerequisites

/// `serve --api-keys` with a file that holds no key — empty, or comments and blank lines only —
/// fails at start saying so, before it opens (and creates) the ledger.
@Suite struct ServeKeysFileStartTests {
    @Test("a keys file without keys fails at start with 'holds no keys' and creates no ledger",
          arguments: ["", "# the keys go here\n\n   \n"])
    func keysFileWithoutKeysFailsAtStart(text: String) throws {
        let folder = try TestFolders.make("serve-keys")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = folder.appending(path: "keys").path
        try text.write(toFile: keys, atomically: true, encoding: .utf8)
        let root = folder.appending(path: "root.pem").path
        try ServiceProcess.authority.rootCertificate.pemRepresentation.write(toFile: root, atomically: true, encoding: .utf8)
        let ledger = folder.appending(path: "service.sqlite").path
        let result = try CommandRunner.run([
            "serve", "Examples/BackyardBirds", "--ledger", ledger, "--root", root, "--bundle-id", ServiceProcess.bundleId,
            "--environment", "Sandbox", "--listen", "127.0.0.1:0", "--api-keys", keys,
        ])
        #expect(result.status == 1, "\(result.standardOutput)")
        #expect(result.standardError == "storerules serve: --api-keys: \(keys) holds no keys: give at least one `ROLE KEY` line (roles app and admin)\n",
                "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: ledger))
    }
}
