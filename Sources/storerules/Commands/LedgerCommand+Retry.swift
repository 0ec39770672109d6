import CommandLineOptions
import StoreCore
import StorePolicy
import StoreService

extension LedgerCommand {
    /// `ledger retry DIR --ledger URL`: first every kept notification whose customer is known
    /// now is processed, then DIR's policy is asked again for every unfinished transaction;
    /// one JSON line (the service's transaction answer) per transaction ingested or retried.
    static func retry(_ parsed: ParsedArguments) throws -> Int32 {
        let folderPath = try parsed.positional(1, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 2)
        let location = try location(parsed)
        let catalog = try PolicyLoader.open(folderPath).1
        let engine = try PolicyLoader.engine(forFolder: folderPath)
        let ledger = try location.openForCommand()
        let decide = engine.grantDecision(for: ledger, catalog: catalog)
        for case .processed(let result?, _) in try ledger.resolvePendingNotifications(decide: decide) {
            let answer = TransactionAnswer(result, balances: try ledger.balances(customerID: result.transaction.customerID))
            Output.line(try Output.json(answer))
        }
        for result in try ledger.retryUnfinished(decide: decide) {
            let answer = TransactionAnswer(result, balances: try ledger.balances(customerID: result.transaction.customerID))
            Output.line(try Output.json(answer))
        }
        return 0
    }
}
