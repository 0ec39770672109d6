import Foundation
import StoreCore
import StorePolicy

/// Opens a policy folder for a command, turning failures into one-line errors.
enum PolicyLoader {
    /// The folder, its catalog and an engine running its policy.
    static func engine(forFolder path: String, print: @escaping @Sendable (String) -> Void = { Output.error("[policy] " + $0) }) throws -> PolicyEngine {
        let (folder, catalog) = try open(path)
        do {
            return try PolicyEngine(source: try folder.policySource(),
                                    catalog: catalog.map(PolicyCatalog.init) ?? .empty, print: print)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The folder and its catalog, if it has one.
    static func open(_ path: String) throws -> (PolicyFolder, Catalog?) {
        do {
            let folder = try PolicyFolder(URL(fileURLWithPath: path))
            do {
                return (folder, try folder.loadCatalog())
            } catch {
                throw CommandFailure(error.description)
            }
        } catch let error as PolicyError {
            throw CommandFailure(error.description)
        }
    }
}
