import AppStoreServerAPI
import CommandLineOptions
import Foundation
import ServiceCommandLine
import StoreCore
import StorePolicy
import StoreService

extension LedgerCommand {
    /// `--incident FILE` of `extend`.
    static let incident = TypedOption<String>.text(
        "incident", "FILE", help: #"The incident: {"start", "end" (ISO 8601), "reason", "products"?, "storefronts"?}. Required."#)
    /// `--dry-run` of `extend`.
    static let dryRunFlag = CommandOption.flag("dry-run", help: "List who gets what and why, and who was sent it already; send nothing.")

    /// The options of `extend`.
    static let extendOptions: [CommandOption] = [
        ledgerOption, incident.option, dryRunFlag, IngestOptions.root.option, ServiceOptionDeclarations.bundleID.option,
        ServiceOptionDeclarations.environment.option, IngestOptions.appAppleID.option,
        CommandOption.json(help: "Print the plan and the summary as JSON."),
    ] + AppStoreAPIOptionDeclarations.all

    /// `ledger extend DIR --ledger URL --incident FILE [--dry-run] …`: the policy's
    /// `renewal_extension` for each active subscriber the incident touched, then the extensions
    /// sent through the App Store Server API.
    static func extend(_ parsed: ParsedArguments) async throws -> Int32 {
        let folder = try parsed.positional(1, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 2)
        let incidentPath = try parsed.required(incident)
        let incidentText: Data
        do {
            incidentText = try InputFile.read(incidentPath)
        } catch {
            throw CommandFailure(error.description)
        }
        let described: Incident
        do {
            described = try Incident.decode(json: incidentText)
        } catch {
            throw UsageError("--incident \(incidentPath): \(error.description)")
        }
        let dryRun = parsed.flag(dryRunFlag)
        // A real run talks to the App Store: a key option left out is said before the ledger opens.
        if !dryRun { try AppStoreAPIOptionDeclarations.checkGiven(parsed) }
        let service = try appStoreService(parsed, folder: folder)
        try checkProducts(of: described, path: incidentPath, in: service.catalog)
        let client = dryRun ? nil : try client(parsed, service: service)
        let compensation = IncidentCompensation(service: service)
        let plan = try compensation.plan(described, fileDigest: SHA256Digest.hex(of: incidentText))
        let json = parsed.printsJSON
        if !json { printPlan(plan) }
        guard let client else {
            if json { Output.line(try Output.json(PlanJSON(plan: plan, summary: nil))) }
            return plan.entries.contains(where: \.failed) ? 1 : 0
        }
        let showsProgress = isatty(STDERR_FILENO) == 1
        let summary = try await compensation.apply(plan, client: client) { step in
            if showsProgress { Output.error("storerules ledger extend: \(step)") }
        }
        if json {
            Output.line(try Output.json(PlanJSON(plan: plan, summary: summary)))
        } else {
            Output.line("Sent: \(summary.sent); sent before: \(summary.alreadySent); given nothing: \(summary.unextended); failed: \(summary.failures.count)"
                        + summary.failures.map { "\nFailed: \($0)" }.joined())
        }
        return summary.failures.isEmpty ? 0 : 1
    }

    private static func printPlan(_ plan: CompensationPlan) {
        Output.line("Incident: \(plan.incident.reason), \(plan.incident.start.formatted(.iso8601)) to \(plan.incident.end.formatted(.iso8601)); "
                    + "\(plan.entries.count) subscriber\(plan.entries.count == 1 ? "" : "s") touched (policy \(plan.policyVersion))")
        for (productID, given) in plan.massProducts.sorted(by: { $0.key < $1.key }) {
            let sent = plan.entries.first { $0.subscription.productID == productID && $0.sentBefore != nil }?.sentBefore
            Output.line("  every subscriber of \(productID): +\(given.days) days, \(given.reason.word) (one mass extension"
                        + (sent.map { "; sent already \(sentDate($0))" } ?? "") + ")")
        }
        for entry in plan.entries {
            let subject = "  \(entry.customerID)  \(entry.subscription.originalTransactionID)  \(entry.subscription.productID)"
            let sent = entry.sentBefore.map {
                "  (sent already \(sentDate($0))\($0.originalTransactionID == nil ? " by the mass extension" : ""): +\($0.days) days)"
            } ?? ""
            if let given = entry.extensionGiven {
                Output.line("\(subject)  +\(given.days) days, \(given.reason.word)\(sent)")
            } else {
                Output.line("\(subject)  nothing: \(entry.why ?? "")\(sent)")
            }
        }
    }

    /// When `record` was sent, in ISO 8601.
    private static func sentDate(_ record: RenewalExtensionRecord) -> String {
        Date(millisecondsSince1970: record.updatedDate).formatted(.iso8601)
    }

    /// The plan, and what applying it did, as JSON.
    private struct PlanJSON: Encodable {
        let plan: CompensationPlan
        let summary: CompensationSummary?

        private struct EntryJSON: Encodable {
            let customer: String
            let originalTransactionID: String
            let productID: String
            let days: Int?
            let reason: String?
            let why: String?
            let failed: Bool
            let mass: Bool
            let sentBefore: RenewalExtensionRecord?

            enum CodingKeys: String, CodingKey {
                case customer, originalTransactionID = "original_transaction_id", productID = "product_id", days, reason, why, failed, mass
                case alreadySent = "already_sent", sentDate = "sent_date"
            }

            /// Every field, null where there is no value.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(customer, forKey: .customer)
                try container.encode(originalTransactionID, forKey: .originalTransactionID)
                try container.encode(productID, forKey: .productID)
                try container.encode(days, forKey: .days)
                try container.encode(reason, forKey: .reason)
                try container.encode(why, forKey: .why)
                try container.encode(failed, forKey: .failed)
                try container.encode(mass, forKey: .mass)
                try container.encode(sentBefore != nil, forKey: .alreadySent)
                try container.encode(sentBefore.map(LedgerCommand.sentDate), forKey: .sentDate)
            }
        }

        enum CodingKeys: String, CodingKey {
            case incidentDigest = "incident_digest", policyVersion = "policy_version", subscribers, summary
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(plan.incidentKey, forKey: .incidentDigest)
            try container.encode(plan.policyVersion, forKey: .policyVersion)
            try container.encode(plan.entries.map {
                EntryJSON(customer: $0.customerID, originalTransactionID: $0.subscription.originalTransactionID,
                          productID: $0.subscription.productID, days: $0.extensionGiven?.days, reason: $0.extensionGiven?.reason.word,
                          why: $0.why, failed: $0.failed, mass: plan.massProducts[$0.subscription.productID] != nil, sentBefore: $0.sentBefore)
            }, forKey: .subscribers)
            try container.encodeIfPresent(summary, forKey: .summary)
        }
    }

    /// Refuses an incident naming a product the catalog does not sell as an auto-renewable
    /// subscription: it would compensate no one, silently.
    static func checkProducts(of incident: Incident, path: String, in catalog: Catalog?) throws {
        guard let catalog, let products = incident.products else { return }
        let subscriptions = catalog.products.filter { $0.type == .autoRenewable }.map(\.id)
        for (index, product) in products.enumerated() where !subscriptions.contains(product) {
            let hint = NearestName.nearest(to: product, in: subscriptions).map { " (did you mean '\($0)'?)" } ?? ""
            throw UsageError("--incident \(path): products[\(index)]: '\(product)' is not an auto-renewable subscription of "
                             + "the catalog\(hint)")
        }
    }
}
