import Foundation

/// Reloads an engine's policy when `policy.lua` changes on disk: the live-reload behind
/// `--watch`.
///
/// Call ``reloadIfChanged()`` before a decision (or on a timer). A changed file that compiles
/// and validates is swapped in for the next decision; a broken edit keeps the old policy
/// serving, and the message says why, with the file and line.
public final class PolicyWatcher: @unchecked Sendable {
    private let folder: PolicyFolder
    private let engine: PolicyEngine
    private let lock = NSLock()
    private var lastModification: Date?
    private var lastVersion: String

    /// Watches `folder`'s `policy.lua` for `engine`.
    public init(folder: PolicyFolder, engine: PolicyEngine) {
        self.folder = folder
        self.engine = engine
        lastVersion = engine.version
        lastModification = Self.modificationDate(of: folder.policyURL)
    }

    /// Watches the policy folder at `path` for `engine`.
    public convenience init(folder path: String, engine: PolicyEngine) throws(PolicyError) {
        self.init(folder: try PolicyFolder(URL(fileURLWithPath: path)), engine: engine)
    }

    /// Reloads the policy when the file changed since the last look.
    ///
    /// - Returns: nil when nothing changed; otherwise what happened, in one line.
    public func reloadIfChanged() -> String? {
        lock.lock()
        defer { lock.unlock() }
        let modification = Self.modificationDate(of: folder.policyURL)
        guard modification != lastModification else { return nil }
        lastModification = modification
        let source: PolicySource
        do {
            source = try folder.policySource()
        } catch {
            return "\(error.description); the previous policy keeps serving"
        }
        guard source.version != lastVersion else { return nil }
        lastVersion = source.version
        do {
            try engine.reload(source)
            return "reloaded \(source.chunkName) (version \(source.version))"
        } catch {
            return "\(error.description); the previous policy keeps serving"
        }
    }

    private static func modificationDate(of url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}
