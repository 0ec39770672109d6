import Foundation
import StoreCore

/// The policy releases of a fleet, kept in the ledger's PostgreSQL database: publishing
/// inserts a release and notifies the channel ``channel`` in the same transaction, so every
/// instance listening learns of it as soon as it is durable.
public final class PolicyReleaseStore: Sendable {
    /// The `LISTEN`/`NOTIFY` channel releases are announced on; the payload is the release number.
    public static let channel = "storerules_policy"

    /// The database.
    public let url: String
    private let pool: PostgresConnectionPool

    /// Opens the releases of the ledger at `url`, bringing its schema up to date.
    ///
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses the schema.
    public init(url: String) throws {
        self.url = url
        pool = try PostgresConnectionPool(url: url, size: 1)
        try pool.withConnection { try PostgresLedgerSchema.migrator.migrate($0) }
    }

    /// Publishes `script` (whose version is `version`) with its catalog, and announces it.
    @discardableResult
    public func publish(version: String, script: String, catalogName: String?, catalog: String?,
                        action: PolicyRelease.Action = .publish) throws -> PolicyRelease {
        try pool.transaction(.readCommitted, retry: PostgresRetryPolicy()) { connection in
            let rows = try connection.execute(
                """
                INSERT INTO policy_release (version, script, catalog_name, catalog, action, released_date)
                VALUES ($1, $2, $3, $4, $5, $6) RETURNING \(Self.columns)
                """,
                [.text(version), .text(script), catalogName.map(PostgresValue.text), catalog.map(PostgresValue.text),
                 .text(action.rawValue), .integer(Date().millisecondsSince1970)])
            guard let row = rows.first else {
                throw PostgresError(kind: .server, sqlState: nil, message: "the release was not stored", sql: nil)
            }
            let release = try Self.release(from: row)
            try connection.notify(Self.channel, payload: String(release.number))
            return release
        }
    }

    /// Every release, newest first.
    public func releases() throws -> [PolicyRelease] {
        try pool.withConnection { connection in
            try connection.execute("SELECT \(Self.columns) FROM policy_release ORDER BY release_number DESC").map(Self.release(from:))
        }
    }

    /// The newest release, which a following instance serves; nil before the first.
    public func latest() throws -> PolicyRelease? {
        try pool.withConnection { connection in
            try connection.execute("SELECT \(Self.columns) FROM policy_release ORDER BY release_number DESC LIMIT 1")
                .first.map(Self.release(from:))
        }
    }

    /// Publishes again the newest release whose version is `version` or starts with it.
    ///
    /// - Throws: ``PolicyReleaseError`` when no release, or more than one version, matches.
    @discardableResult
    public func rollBack(to version: String) throws -> PolicyRelease {
        let matching = try releases().filter { $0.version.hasPrefix(version) }
        guard let chosen = matching.first, !version.isEmpty else { throw PolicyReleaseError.unknownVersion(version) }
        let versions = Set(matching.map(\.version))
        guard versions.count == 1 else { throw PolicyReleaseError.ambiguousVersion(version, matches: versions.sorted()) }
        return try publish(version: chosen.version, script: chosen.script, catalogName: chosen.catalogName, catalog: chosen.catalog,
                           action: .rollback)
    }

    static let columns = "release_number, version, script, catalog_name, catalog, action, released_date"

    static func release(from row: PostgresRow) throws -> PolicyRelease {
        let action = try row.text("action")
        return PolicyRelease(
            number: try row.integer("release_number"), version: try row.text("version"), script: try row.text("script"),
            catalogName: try row.optionalText("catalog_name"), catalog: try row.optionalText("catalog"),
            action: PolicyRelease.Action(rawValue: action) ?? .publish,
            releasedAt: Date(millisecondsSince1970: try row.integer("released_date")))
    }
}

/// A rollback that names no single release.
public enum PolicyReleaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No release has this version.
    case unknownVersion(String)
    /// Several versions start with this text.
    case ambiguousVersion(String, matches: [String])

    public var description: String {
        switch self {
        case .unknownVersion(let version): "no release has version '\(version)'; storerules policy list shows them"
        case .ambiguousVersion(let version, let matches): "'\(version)' starts \(matches.count) versions: \(matches.joined(separator: ", "))"
        }
    }
}
