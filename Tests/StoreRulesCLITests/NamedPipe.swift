import Foundation
import TestPrerequisites

/// A FIFO in a temporary folder that hands `text` to the first process that opens it, as a
/// shell's `<(…)` does.
struct NamedPipe {
    /// The FIFO's path.
    let path: String

    /// Makes the FIFO and starts writing `text` into it on a thread of its own; the write
    /// finishes once a reader opens the FIFO.
    init(serving text: String) throws {
        let folder = try TestFolders.make("fifo")
        path = folder.appendingPathComponent("input").path
        guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        let path = path
        Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.write(Data(text.utf8))
            try? handle.close()
        }.start()
    }
}
