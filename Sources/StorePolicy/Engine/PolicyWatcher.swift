import Foundation
import StoreCore

/// Reloads a policy when its folder's `policy.lua` or `.storekit` catalog changes on disk: the
/// live-reload behind `--watch`.
///
/// Call ``reloadIfChanged()`` before a decision (or on a timer). When `policy.lua` or a
/// `.storekit` file changed, appeared or went away, the folder is read again and its script and
/// catalog swapped in together for the next decision; a broken edit of either, or a second
/// catalog, keeps the old policy serving, and the message says why, with the file and line.
public final class PolicyWatcher: @unchecked Sendable {
    /// What a look at the folder found.
    public enum Change: Sendable, Equatable {
        /// The policy or catalog changed, and the new version serves: the line says which.
        case reloaded(String)
        /// The policy or catalog changed, and failed: the previous version keeps serving. Why.
        case failed(String)

        /// The change in one line.
        public var message: String {
            switch self {
            case .reloaded(let line), .failed(let line): line
            }
        }
    }

    private let folder: PolicyFolder
    private let reload: (PolicySource, Catalog?) throws -> String
    private let lock = NSLock()
    private var lastModifications: [String: Date]

    /// Watches `folder` and hands each changed script and catalog to `reload`, which swaps them
    /// in and returns the new version, or throws why it cannot.
    public init(folder: PolicyFolder, reload: @escaping (PolicySource, Catalog?) throws -> String) {
        self.folder = folder
        self.reload = reload
        lastModifications = Self.modificationDates(of: folder)
    }

    /// Watches `folder` for `engine`.
    public convenience init(folder: PolicyFolder, engine: PolicyEngine) {
        self.init(folder: folder) { source, catalog in
            try engine.reload(source, catalog: catalog.map(PolicyCatalog.init) ?? .empty)
        }
    }

    /// Watches the policy folder at `path` for `engine`.
    public convenience init(folder path: String, engine: PolicyEngine) throws(PolicyError) {
        self.init(folder: try PolicyFolder(URL(fileURLWithPath: path)), engine: engine)
    }

    /// Reloads the policy and its catalog when either file changed since the last look.
    ///
    /// - Returns: nil when nothing changed; otherwise what happened.
    public func reloadIfChanged() -> Change? {
        lock.lock()
        defer { lock.unlock() }
        let modifications = Self.modificationDates(of: folder)
        guard modifications != lastModifications else { return nil }
        lastModifications = modifications
        do {
            // Opened again, so a catalog added beside the first, or removed, counts.
            let current = try PolicyFolder(folder.url)
            let source = try current.policySource()
            let catalog = try current.loadCatalog()
            let version = try reload(source, catalog)
            return .reloaded("reloaded \(source.chunkName)\(current.catalogURL.map { " and \($0.lastPathComponent)" } ?? "") "
                             + "(version \(version))")
        } catch let error as PolicyError {
            return .failed("\(error.description); the previous version keeps serving")
        } catch {
            return .failed("\(error); the previous version keeps serving")
        }
    }

    /// When `policy.lua` and each `.storekit` file of the folder last changed, by name.
    private static func modificationDates(of folder: PolicyFolder) -> [String: Date] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? [])
            .filter { $0 == "policy.lua" || $0.hasSuffix(".storekit") }
        var dates: [String: Date] = [:]
        for name in names {
            dates[name] = (try? FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(name).path))?[.modificationDate] as? Date
        }
        return dates
    }
}
