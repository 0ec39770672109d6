/// What the migration to canonical app account tokens changes, written once for both databases.
enum AppAccountTokenMigration {
    /// The tables with an `app_account_token` column.
    static let tables = ["customer", "store_transaction", "renewal_info", "pending_notification"]

    /// One stored token and the canonical form it becomes.
    struct Change: Equatable, Sendable {
        /// The token as stored.
        let stored: String
        /// Its canonical form.
        let canonical: String
    }

    /// The changes that make `tokens` (a column's distinct values) canonical. With `unique`
    /// (a column that holds each token once), tokens whose canonical form another stored token
    /// has or shares are left as they are.
    static func changes(of tokens: [String], unique: Bool) -> [Change] {
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
