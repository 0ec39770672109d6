import CommandLineOptions
import Foundation
import StoreCore
import StorePolicy
import StoreService

extension LedgerCommand {
    /// `ledger customer ID --ledger URL [DIR] [--json]`: the service's entitlements answer for
    /// the customer now, with the features DIR's policy unlocks when DIR is given.
    static func customer(_ parsed: ParsedArguments) throws -> Int32 {
        let customerID = try parsed.positional(1, "the customer ID")
        let folderPath = parsed.positionals.count > 2 ? parsed.positionals[2] : nil
        try parsed.expectPositionals(atMost: 3)
        let location = try location(parsed)
        var catalog: Catalog?
        var engine: PolicyEngine?
        if let folderPath {
            catalog = try PolicyLoader.open(folderPath).1
            engine = try PolicyLoader.engine(forFolder: folderPath)
        }
        let ledger = try location.openForCommand(mustExist: true)
        guard try ledger.customer(id: customerID) != nil else {
            throw CommandFailure("the ledger \(location.displayName) has no customer \(customerID)")
        }
        let now = try parsed.value(of: StoreClockOption.declaration)?.now() ?? Date()
        let state = try ledger.customerState(customerID: customerID, catalog: catalog, at: now)
        let context = PolicyContext(state: state, catalog: catalog, engine: engine, environment: .xcode)
        let answer = EntitlementsAnswer(state: state, context: context, engine: engine)
        Output.line(parsed.printsJSON ? try Output.json(answer, pretty: true) : describe(answer))
        return 0
    }

    /// The answer as text: one line per part, `none` for an empty one.
    static func describe(_ answer: EntitlementsAnswer) -> String {
        func list(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: ", ") }
        var lines = ["Customer \(answer.customerID)", "Entitlements: \(list(answer.entitlements))"]
        lines.append("Subscriptions: " + (answer.subscriptions.isEmpty ? "none" : ""))
        for (group, subscription) in answer.subscriptions.sorted(by: { $0.key < $1.key }) {
            let until = subscription.expirationDate.map { ", expires \($0.ISO8601Format())" } ?? ""
            lines.append("  \(group): \(subscription.productID), \(subscription.state)"
                         + "\(subscription.willAutoRenew ? ", renews" : ", does not renew")\(until)")
        }
        lines.append("Balances: " + list(answer.balances.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }))
        lines.append("Unfinished transactions: \(list(answer.unfinishedTransactions))")
        if let features = answer.features, let version = answer.policyVersion {
            let fallback = answer.featuresFallback.map { " (the entitled products: the features hook failed: \($0))" } ?? ""
            lines.append("Features (policy \(version)): \(list(features))\(fallback)")
        }
        return lines.joined(separator: "\n")
    }
}
