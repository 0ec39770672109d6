import CommandLineOptions
import StoreCore
import StorePolicy
import StoreService

extension LedgerCommand {
    /// `ledger retry DIR --ledger URL`: DIR's policy asked again for every unfinished
    /// transaction, one JSON line (the service's transaction answer) per transaction retried.
    static func retry(_ parsed: ParsedArguments) throws -> Int32 {
        let folderPath = try parsed.positional(1, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 2)
        let location = try location(parsed)
        let catalog = try PolicyLoader.open(folderPath).1
        let engine = try PolicyLoader.engine(forFolder: folderPath)
        let ledger = try location.openForCommand()
        for result in try ledger.retryUnfinished(decide: engine.grantDecision(for: ledger, catalog: catalog)) {
            let answer = TransactionAnswer(result, balances: try ledger.balances(customerID: result.transaction.customerID))
            Output.line(try Output.json(answer))
        }
        return 0
    }
}
