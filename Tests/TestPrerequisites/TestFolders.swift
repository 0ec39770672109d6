import Foundation
import Synchronization

/// Folders a test makes for its files where the folder must outlive the test's own scope (a
/// ledger handed to a harness, a process started on it): each removed when the test process
/// exits, so a run leaves nothing in the temporary directory.
public enum TestFolders {
    private static let made = Mutex<[URL]>([])
    private static let removalAtExit: Void = { atexit { TestFolders.removeAll() } }()

    /// A new empty folder in the temporary directory, named `prefix` and a UUID, removed when
    /// the process exits.
    public static func make(_ prefix: String) throws -> URL {
        _ = removalAtExit
        let folder = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        made.withLock { $0.append(folder) }
        return folder
    }

    /// Removes every folder made so far.
    static func removeAll() {
        for folder in made.withLock({ $0 }) {
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
