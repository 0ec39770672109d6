import Foundation
import StoreService
import Testing
import TestPrerequisites

/// A decision log names customers and what was decided for them: its file is created readable
/// by its owner alone, at start and when it is reopened after a rotation, and a file that is
/// already there keeps the mode its owner gave it.
@Suite struct DecisionLogFileModeTests {
    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? nil
    }

    @Test("a decision log file is created 0600, and again 0600 when reopened after a rotation moved it")
    func createdOwnerOnly() throws {
        let folder = try TestFolders.make("decision-log")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "decisions.jsonl").path
        let log = try DecisionLog(appendingTo: path)
        #expect(Self.mode(path) == 0o600)
        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        try log.reopen()
        #expect(Self.mode(path) == 0o600)
    }

    @Test("an existing decision log file keeps its mode")
    func existingFileKeepsItsMode() throws {
        let folder = try TestFolders.make("decision-log")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "decisions.jsonl").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{}\n".utf8), attributes: [.posixPermissions: 0o640]))
        _ = try DecisionLog(appendingTo: path)
        #expect(Self.mode(path) == 0o640)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}\n")
    }
}
