import CommandLineOptions
import PostgresLedger
import StoreCore
import SQLiteLedger

extension LedgerCommand {
    /// `ledger check --ledger URL`: one line per violated invariant and exit status 1, or one
    /// line saying the ledger is consistent.
    static func check(_ parsed: ParsedArguments) throws -> Int32 {
        try parsed.expectPositionals(atMost: 1)
        let location = try location(parsed)
        let ledger = try location.openForCommand(mustExist: true)
        let violations = try ledger.checkInvariants()
        violations.forEach(Output.line)
        guard violations.isEmpty else { return 1 }
        let customers = try ledger.customers().count
        Output.line("ledger check: \(customers) customer\(customers == 1 ? "" : "s"), no violation")
        return 0
    }

    /// `ledger copy --from URL --to URL`: every record of one ledger into another, empty one.
    static func copy(_ parsed: ParsedArguments) throws -> Int32 {
        try parsed.expectPositionals(atMost: 1)
        let from = try location(parsed, Self.from)
        let to = try location(parsed, Self.to)
        guard from != to else { throw UsageError("--from and --to name the same ledger") }
        let source = try from.openForCommand(mustExist: true)
        let target = try to.openForCommand()
        let summary = try source.copy(to: target)
        Output.line("ledger copy: from \(from.displayName) to \(to.displayName)")
        let kinds: [(String, Int)] = [
            ("customers", summary.customers), ("transactions", summary.transactions), ("signed versions", summary.versions),
            ("renewal infos", summary.renewalInfos), ("grants", summary.grants),
            ("processed notifications", summary.processedNotifications), ("pending notifications", summary.pendingNotifications),
            ("notification conflicts", summary.notificationConflicts), ("merchandising events", summary.events),
            ("reconciliation marks", summary.reconciliationMarks), ("refund requests", summary.consumptionRequests),
            ("renewal extensions", summary.renewalExtensions), ("experiment exposures", summary.exposures),
            ("experiment phases", summary.experimentPhases),
        ]
        for (kind, count) in kinds {
            Output.line("  \(kind): \(count)")
        }
        return 0
    }

    /// `ledger migrate --ledger URL`: the ledger opened, which brings its schema up to date.
    static func migrate(_ parsed: ParsedArguments) throws -> Int32 {
        try parsed.expectPositionals(atMost: 1)
        let location = try location(parsed)
        _ = try location.openForCommand()
        switch location {
        case .sqlite:
            Output.line("ledger migrate: \(location.displayName) is at schema version \(Ledger.schemaVersion), the current one")
        case .postgres:
            Output.line("ledger migrate: \(location.displayName) is migrated, its schema current")
        }
        return 0
    }
}
