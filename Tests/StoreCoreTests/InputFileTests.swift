import Foundation
import StoreCore
import Testing
import TestPrerequisites

/// Reading a file argument: regular files and FIFOs alike, and one-line reasons.
@Suite struct InputFileTests {
    private func temporaryFolder() throws -> URL {
        let folder = try TestFolders.make("input-file")
        return folder
    }

    @Test("a regular file and a FIFO read the same")
    func regularFilesAndFIFOs() throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("plain.txt")
        try "hello".write(to: file, atomically: true, encoding: .utf8)
        #expect(try InputFile.readText(file.path) == "hello")

        let fifo = folder.appendingPathComponent("pipe").path
        try #require(mkfifo(fifo, 0o600) == 0)
        Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data("from a pipe".utf8))
            try? handle?.close()
        }.start()
        #expect(try InputFile.readText(fifo) == "from a pipe")
    }

    @Test("a missing path and a folder say which, in one line")
    func reasons() throws {
        let folder = try temporaryFolder()
        #expect(throws: InputFileError(path: folder.path, reason: .isFolder)) { try InputFile.read(folder.path) }
        let missing = folder.appendingPathComponent("missing").path
        #expect(throws: InputFileError(path: missing, reason: .noSuchFile)) { try InputFile.read(missing) }
        #expect(InputFileError(path: "x", reason: .permissionDenied).description == "cannot read x: permission denied")
    }
}
