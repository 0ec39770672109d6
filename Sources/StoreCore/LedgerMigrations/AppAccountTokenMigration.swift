/// What the migration to canonical app account tokens changes, the same on every storage.
package enum AppAccountTokenMigration {
    /// The tables with an `app_account_token` column.
    package static let tables = ["customer", "store_transaction", "renewal_info", "pending_notification"]

    /// One stored token and the canonical form it becomes.
    package struct Change: Equatable, Sendable {
        /// The token as stored.
        package let stored: String
        /// Its canonical form.
        package let canonical: String
    }

    /// The changes that make `tokens` (a column's distinct values) canonical. With `unique`
    /// (a column that holds each token once), tokens whose canonical form another stored token
    /// has or shares are left as they are.
    package static func changes(of tokens: [String], unique: Bool) -> [Change] {
        var byCanonical: [String: [String]] = [:]
        for token in tokens {
            byCanonical[AppAccountToken.canonical(token) ?? token, default: []].append(token)
        }
        return byCanonical.flatMap { canonical, stored -> [Change] in
            guard !unique || stored.count == 1 else { return [] }
            return stored.filter { $0 != canonical }.map { Change(stored: $0, canonical: canonical) }
        }.sorted { $0.stored < $1.stored }
    }
}
