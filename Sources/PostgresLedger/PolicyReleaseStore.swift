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
        try pool.withConnection { try PostgresLedgerMigrationHost(connection: $0).migrate() }
    }

    /// Publishes `script` (whose version is `version`) with its catalog, and announces it.
    @discardableResult
    public func publish(version: String, script: String, catalogName: String?, catalog: String?,
                        action: PolicyRelease.Action = .publish) throws -> PolicyRelease {
        try pool.transaction(.readCommitted, retry: .postgresTransaction) { connection in
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

    /// The newest `count` releases, newest first.
    public func releases(newest count: Int) throws -> [PolicyRelease] {
        try pool.withConnection { connection in
            try connection.execute("SELECT \(Self.columns) FROM policy_release ORDER BY release_number DESC LIMIT $1", [.integer(Int64(count))])
                .map(Self.release(from:))
        }
    }

    /// The newest release, which a following instance serves; nil before the first.
    public func latest() throws -> PolicyRelease? {
        try pool.withConnection { connection in
            try connection.execute("SELECT \(Self.columns) FROM policy_release ORDER BY release_number DESC LIMIT 1")
                .first.map(Self.release(from:))
        }
    }

    /// Publishes again the release numbered `reference`, or the newest release whose version is
    /// `reference` or starts with it.
    ///
    /// - Throws: ``PolicyReleaseError`` when no release matches, when the text names several
    ///   versions, or a release number and another release's version; and when the release
    ///   named is the one serving (nothing is published then).
    @discardableResult
    public func rollBack(to reference: String) throws -> PolicyRelease {
        let all = try releases()
        let byNumber = Int64(reference).flatMap { number in all.first { $0.number == number } }
        let byVersion = reference.isEmpty ? [] : all.filter { $0.version.hasPrefix(reference) }
        let versions = Set(byVersion.map(\.version))
        let chosen: PolicyRelease
        switch (byNumber, byVersion.first) {
        case (nil, nil):
            throw PolicyReleaseError.unknownVersion(reference)
        case (let numbered?, let versioned?) where numbered.version != versioned.version || versions.count > 1:
            throw PolicyReleaseError.ambiguousVersion(reference, matches: (["release \(numbered.number)"] + versions.sorted()))
        case (let numbered?, _):
            chosen = numbered
        case (nil, let versioned?):
            guard versions.count == 1 else { throw PolicyReleaseError.ambiguousVersion(reference, matches: versions.sorted()) }
            chosen = versioned
        }
        if let latest = all.first, latest.version == chosen.version {
            throw PolicyReleaseError.alreadyServing(version: chosen.version, release: latest.number)
        }
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
    /// No release has this number or version.
    case unknownVersion(String)
    /// The text names several versions, or a release number and another release's version.
    case ambiguousVersion(String, matches: [String])
    /// The release named is the version serving now; nothing is published.
    case alreadyServing(version: String, release: Int64)

    public var description: String {
        switch self {
        case .unknownVersion(let version):
            "no release is numbered '\(version)' or has a version starting with it; storerules policy list shows them"
        case .ambiguousVersion(let version, let matches):
            "'\(version)' names \(matches.count) releases: \(matches.joined(separator: ", ")); give more of the version"
        case .alreadyServing(let version, let release):
            "version \(version) already serves (release \(release)); nothing was published"
        }
    }
}
