import Foundation

/// One policy version published to a fleet: the script, the catalog it was checked with, and
/// when. The newest release is the one every instance following the ledger serves.
public struct PolicyRelease: Sendable, Equatable, Codable {
    /// What a release did.
    public enum Action: String, Sendable, Codable {
        /// A new policy, checked and published.
        case publish
        /// An earlier release's policy, published again.
        case rollback
    }

    /// Its place in the history, counted from 1.
    public var number: Int64
    /// The policy's version (the content hash of its script).
    public var version: String
    /// The `policy.lua` text.
    public var script: String
    /// The `.storekit` file's name and text, when the folder had one.
    public var catalogName: String?
    /// The `.storekit` file's text.
    public var catalog: String?
    /// What the release did.
    public var action: Action
    /// When it was released.
    public var releasedAt: Date

    private enum CodingKeys: String, CodingKey {
        case number, version, catalogName = "catalog_name", action, releasedAt = "released_at"
    }

    /// Describes a release; the script and catalog are not part of its JSON.
    public init(number: Int64, version: String, script: String, catalogName: String?, catalog: String?, action: Action, releasedAt: Date) {
        self.number = number
        self.version = version
        self.script = script
        self.catalogName = catalogName
        self.catalog = catalog
        self.action = action
        self.releasedAt = releasedAt
    }

    /// Reads a release's JSON summary (without its script and catalog).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int64.self, forKey: .number)
        version = try container.decode(String.self, forKey: .version)
        script = ""
        catalogName = try container.decodeIfPresent(String.self, forKey: .catalogName)
        catalog = nil
        action = try container.decode(Action.self, forKey: .action)
        let time = try container.decode(String.self, forKey: .releasedAt)
        guard let date = ISO8601DateFormatter().date(from: time) else {
            throw DecodingError.dataCorruptedError(forKey: .releasedAt, in: container, debugDescription: "expected an ISO 8601 time, found \(time)")
        }
        releasedAt = date
    }

    /// Writes the release's summary: number, version, catalog name, action, time (ISO 8601).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(catalogName, forKey: .catalogName)
        try container.encode(action, forKey: .action)
        try container.encode(ISO8601DateFormatter().string(from: releasedAt), forKey: .releasedAt)
    }
}
