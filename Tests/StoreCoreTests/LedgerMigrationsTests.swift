import StoreCore
import Testing

/// The one list of ledger migrations keeps, for each database, the history its files and
/// servers already record: SQLite counts the steps, so each keeps its position; PostgreSQL
/// names them, so each keeps its name and order.
@Suite struct LedgerMigrationsTests {
    @Test("SQLite's history is the twenty-one steps its files count, in their order")
    func sqliteHistory() {
        #expect(LedgerMigrator.ledger(.sqlite).migrations.map(\.name) == [
            "create ledger tables",
            "create local store tables",
            "create pending notification table",
            "key transaction versions by their JWS digest",
            "create merchandising event table",
            "canonicalise app account tokens",
            "create notification conflict table",
            "number merchandising events",
            "create reconciliation mark table",
            "create consumption request and renewal extension tables",
            "keep eligible win-back offers of renewal info",
            "keep the price of transactions",
            "create experiment tables",
            "keep the currency and offer discount type of transactions",
            "index transactions for experiment reports",
            "index transactions for subscription metrics",
            "keep the storefront of transactions",
            "index transactions for subscription metrics by storefront",
            "create outgoing event tables",
            "index transactions and exposures for experiment reports by customer",
            "index pending outgoing events by due time and creation",
        ])
    }

    @Test("PostgreSQL's history is the nineteen steps its servers name, in their order")
    func postgresHistory() {
        #expect(LedgerMigrator.ledger(.postgres).migrations.map(\.name) == [
            "create ledger tables",
            "create pending notification table",
            "create merchandising event table",
            "create policy release table",
            "canonicalise app account tokens",
            "create notification conflict table",
            "create reconciliation mark table",
            "create consumption request and renewal extension tables",
            "keep eligible win-back offers of renewal info",
            "keep the price of transactions",
            "create experiment tables",
            "keep the currency and offer discount type of transactions",
            "index transactions for experiment reports",
            "index transactions for subscription metrics",
            "keep the storefront of transactions",
            "index transactions for subscription metrics by storefront",
            "create outgoing event tables",
            "index transactions and exposures for experiment reports by customer",
            "index pending outgoing events by due time and creation",
        ])
    }
}
