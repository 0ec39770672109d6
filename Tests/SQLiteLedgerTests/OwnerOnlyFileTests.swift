import Foundation
import StoreCore
import SQLiteLedger
import Testing
import TestPrerequisites

/// A SQLite ledger's files are created readable by their owner alone — the database, and the
/// write-ahead log and shared memory SQLite makes beside it with the database's mode — while a
/// file that is already there keeps the mode its owner gave it.
@Suite struct OwnerOnlyFileTests {
    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? nil
    }

    static func temporaryPath(_ name: String) throws -> (folder: URL, path: String) {
        let folder = try TestFolders.make("owner-only")
        return (folder, folder.appending(path: name).path)
    }

    @Test("a new ledger's database, -wal and -shm files are 0600")
    func newLedgerFilesAreOwnerOnly() throws {
        let (folder, path) = try Self.temporaryPath("ledger.sqlite")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try Ledger(path: path)
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file)")
            #expect(Self.mode(file) == 0o600, "\(file)")
        }
        // The ledger is used after the files are looked at, so it is open while they are.
        #expect(try ledger.customer(id: "ana") == nil)
    }

    @Test("a database file that is already there keeps its mode")
    func existingFileKeepsItsMode() throws {
        let (folder, path) = try Self.temporaryPath("shared.sqlite")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
        let database = try Database(path: path)
        try database.write { try $0.execute("CREATE TABLE kept (value INTEGER)") }
        #expect(Self.mode(path) == 0o640)
    }

    @Test("OwnerOnlyFile.open makes a missing file 0600 and opens an existing one as it is")
    func openMakesOrKeeps() throws {
        let (folder, path) = try Self.temporaryPath("log")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = OwnerOnlyFile.open(path, flags: O_WRONLY | O_APPEND | O_CLOEXEC)
        #expect(made >= 0)
        close(made)
        #expect(Self.mode(path) == 0o600)
        chmod(path, 0o644)
        let again = OwnerOnlyFile.open(path, flags: O_WRONLY | O_APPEND | O_CLOEXEC)
        #expect(again >= 0)
        close(again)
        #expect(Self.mode(path) == 0o644)
        #expect(OwnerOnlyFile.open(folder.appending(path: "missing/log").path, flags: O_WRONLY) == -1)
    }
}
