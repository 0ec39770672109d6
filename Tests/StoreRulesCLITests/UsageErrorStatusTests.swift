import Foundation
import Testing
import TestPrerequisites

/// Every mistake in how a command is called exits with 64 and points to the command's help,
/// whichever command it is and wherever in the command the mistake is found.
@Suite struct UsageErrorStatusTests {
    static let birds = "Examples/BackyardBirds"

    @Test("a usage mistake exits 64 with a pointer to --help", arguments: [
        ["diff", birds],
        ["diff", birds, birds, "--limit", "many"],
        ["diff", birds, birds, birds],
        ["ledger"],
        ["ledger", "check"],
        ["appstore", "transaction", "1"],
        ["eval", birds],
        ["serve", birds],
        ["store", birds, "purchase"],
        ["policy", "list"],
        ["verify"],
        ["nonsense"],
    ])
    func usageMistakeExits64(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.standardError)")
        #expect(result.standardError.contains("--help"), "\(arguments): \(result.standardError)")
    }

    @Test("a usage mistake in a subcommand points to the subcommand's own help")
    func subcommandMistakePointsToItsHelp() throws {
        let ledger = try CommandRunner.run(["ledger", "check"])
        #expect(ledger.status == 64)
        #expect(ledger.standardError == "storerules ledger: missing --ledger URL\nRun 'storerules ledger check --help' for usage.\n")
        let appStore = try CommandRunner.run(["appstore", "transaction", "1"])
        #expect(appStore.standardError.hasSuffix("\nRun 'storerules appstore transaction --help' for usage.\n"), "\(appStore.standardError)")
        let unknown = try CommandRunner.run(["ledger", "chek", "--ledger", "x.sqlite"])
        #expect(unknown.standardError.hasSuffix("\nRun 'storerules ledger --help' for usage.\n"), "\(unknown.standardError)")
    }

    /// The environment of a run that gives no App Store key, key id or issuer id.
    static let noKey = ["STORERULES_APP_STORE_KEY": "", "STORERULES_APP_STORE_KEY_ID": "", "STORERULES_APP_STORE_ISSUER_ID": ""]

    /// Runs `body` with a new folder holding the trusted root, and the path of a ledger not made yet.
    static func withRootAndLedger(_ body: (_ folder: URL, _ root: String, _ ledger: String) throws -> Void) throws {
        let folder = try TestFolders.make("keyless")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appending(path: "root.pem").path
        try ServiceProcess.authority.rootCertificate.pemRepresentation.write(toFile: root, atomically: true, encoding: .utf8)
        try body(folder, root, folder.appending(path: "ledger.sqlite").path)
    }

    @Test("ledger reconcile without the App Store key exits 64 before it opens, and so creates, the ledger")
    func reconcileWithoutAKeyCreatesNoLedger() throws {
        try Self.withRootAndLedger { _, root, ledger in
            let result = try CommandRunner.run(
                ["ledger", "reconcile", Self.birds, "--ledger", ledger, "--root", root, "--bundle-id", ServiceProcess.bundleId,
                 "--environment", "Sandbox"],
                environment: Self.noKey)
            #expect(result.status == 64)
            #expect(result.standardError.hasPrefix("storerules ledger: missing --app-store-key FILE (or STORERULES_APP_STORE_KEY)"),
                    "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: ledger))
        }
    }

    @Test("ledger extend without the App Store key exits 64 before it opens, and so creates, the ledger; its dry run needs no key")
    func extendWithoutAKeyCreatesNoLedger() throws {
        try Self.withRootAndLedger { folder, root, ledger in
            let incident = folder.appending(path: "incident.json").path
            try #"{"start": "2026-11-01T00:00:00Z", "end": "2026-11-01T06:00:00Z", "reason": "outage"}"#
                .write(toFile: incident, atomically: true, encoding: .utf8)
            let arguments = ["ledger", "extend", Self.birds, "--ledger", ledger, "--incident", incident, "--root", root,
                             "--bundle-id", ServiceProcess.bundleId, "--environment", "Sandbox"]
            let result = try CommandRunner.run(arguments, environment: Self.noKey)
            #expect(result.status == 64)
            #expect(result.standardError.contains("missing --app-store-key FILE"), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: ledger))
            #expect(try CommandRunner.run(arguments + ["--dry-run"], environment: Self.noKey).status == 0)
        }
    }

    @Test("serve with an App Store key but no key id, or reconciling without a key, exits 64 and creates no ledger",
          arguments: [(["--app-store-key", "AuthKey.p8", "--app-store-issuer-id", "issuer"], "missing --app-store-key-id ID"),
                      (["--reconcile-every", "1h"], "missing --app-store-key FILE")])
    func serveWithoutTheWholeKeyCreatesNoLedger(options: [String], missing: String) throws {
        try Self.withRootAndLedger { _, root, ledger in
            let result = try CommandRunner.run(
                ["serve", Self.birds, "--ledger", ledger, "--root", root, "--bundle-id", ServiceProcess.bundleId, "--environment", "Sandbox",
                 "--listen", "127.0.0.1:0", "--insecure-no-auth"] + options,
                environment: Self.noKey)
            #expect(result.status == 64)
            #expect(result.standardError.hasPrefix("storerules serve: \(missing)"), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: ledger))
        }
    }
}
