import Foundation
import StoreCore

/// A policy folder as the command line and hosts use it: `policy.lua`, at most one
/// `*.storekit` catalog, `*_test.lua` policy tests, and optionally `journey.json`.
public struct PolicyFolder: Sendable {
    /// The folder.
    public let url: URL
    /// The policy file, `policy.lua`.
    public var policyURL: URL { url.appendingPathComponent("policy.lua") }
    /// The catalog file, when the folder has one.
    public let catalogURL: URL?

    /// Opens a policy folder.
    ///
    /// - Throws: ``PolicyError`` of kind `unreadable` when the folder or its `policy.lua` is
    ///   missing, or when it holds more than one `.storekit` file.
    public init(_ url: URL) throws(PolicyError) {
        self.url = url
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PolicyError(kind: .unreadable, reason: "\(url.path) is not a folder")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
        let catalogs = names.filter { $0.hasSuffix(".storekit") }
        guard catalogs.count <= 1 else {
            throw PolicyError(kind: .unreadable, reason: "\(url.path) holds several .storekit files (\(catalogs.joined(separator: ", "))); keep one")
        }
        catalogURL = catalogs.first.map { url.appendingPathComponent($0) }
        guard names.contains("policy.lua") else {
            throw PolicyError(kind: .unreadable, reason: "\(url.path) has no policy.lua")
        }
    }

    /// The policy's source.
    public func policySource() throws(PolicyError) -> PolicySource {
        try PolicySource(contentsOf: policyURL)
    }

    /// The folder's catalog, or nil when it has none.
    public func loadCatalog(localeIdentifier: String? = nil) throws(CatalogError) -> Catalog? {
        guard let catalogURL else { return nil }
        return try Catalog(contentsOf: catalogURL, localeIdentifier: localeIdentifier)
    }

    /// The `*_test.lua` files, sorted by name.
    public var testFiles: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix("_test.lua") }.sorted().map { url.appendingPathComponent($0) }
    }
}
