import Foundation
import Testing
import TestPrerequisites

/// The files that hold customers' purchases and decisions — a SQLite ledger with its
/// write-ahead log and shared memory, a decision log — are created readable by their owner
/// alone, even by a process whose umask would let everyone read and write them.
@Suite struct OwnerOnlyFilesCommandTests {
    /// The permission bits of the file at `path`, or nil when there is none.
    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? nil
    }

    /// A temporary folder for one test.
    static func folder() throws -> URL {
        let folder = try TestFolders.make("owner-only")
        return folder
    }

    @Test("ledger migrate under umask 000 creates the SQLite ledger 0600")
    func migratedLedgerIsOwnerOnly() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = folder.appending(path: "ledger.sqlite").path
        let (process, pipe) = try CommandRunner.bash("umask 000 && exec '\(CommandRunner.executable.path)' ledger migrate --ledger '\(ledger)'")
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(Self.mode(ledger) == 0o600)
    }

    @Test("serve under umask 000 creates its ledger, the ledger's -wal and -shm, and the decision log 0600")
    func servedFilesAreOwnerOnly() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = folder.appending(path: "service.sqlite").path
        let decisions = folder.appending(path: "decisions.jsonl").path
        let root = folder.appending(path: "root.pem").path
        try ServiceProcess.authority.rootCertificate.pemRepresentation.write(toFile: root, atomically: true, encoding: .utf8)
        let arguments = ["serve", "Examples/BackyardBirds", "--ledger", ledger, "--root", root, "--bundle-id", ServiceProcess.bundleId,
                         "--environment", "Sandbox", "--listen", "127.0.0.1:0", "--insecure-no-auth", "--decision-log", decisions]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "umask 000 && exec \"$0\" \"$@\"", CommandRunner.executable.path] + arguments
        process.currentDirectoryURL = CommandRunner.packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            printed.append(chunk)
        }
        try #require(String(decoding: printed, as: UTF8.self).contains("listening on"), "serve did not start")
        for path in [ledger, ledger + "-wal", ledger + "-shm", decisions] {
            #expect(Self.mode(path) == 0o600, "\(path)")
        }
    }
}
