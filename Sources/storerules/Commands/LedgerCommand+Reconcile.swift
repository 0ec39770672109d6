import AppStoreServerAPI
import CommandLineOptions
import Foundation
import ServiceCommandLine
import StoreCore
import StoreService

extension LedgerCommand {
    /// `--since TIME` of `reconcile`.
    static let since = TypedOption<Date>.time(
        "since", help: "Read notification history from this time (ISO 8601 or milliseconds since 1970) instead of the ledger's checkpoint.")

    /// The options of `reconcile`.
    static let reconcileOptions: [CommandOption] = [
        ledgerOption, IngestOptions.root.option, ServiceOptionDeclarations.bundleID.option, ServiceOptionDeclarations.environment.option,
        IngestOptions.appAppleID.option, since.option, CommandOption.json(help: "Print the summary as JSON."),
    ] + AppStoreAPIOptionDeclarations.all

    /// `ledger reconcile DIR --ledger URL …`: notification history since the checkpoint, then the
    /// touched customers' histories and statuses, through the service's ingest.
    static func reconcile(_ parsed: ParsedArguments) async throws -> Int32 {
        let folder = try parsed.positional(1, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 2)
        // A missing key is said before the ledger is opened, which would create a SQLite file.
        try AppStoreAPIOptionDeclarations.checkGiven(parsed)
        let service = try appStoreService(parsed, folder: folder)
        let client = try client(parsed, service: service)
        let showsProgress = isatty(STDERR_FILENO) == 1
        let summary: ReconciliationSummary
        do {
            summary = try await Reconciler(service: service, client: client).reconcile(since: try parsed.value(of: since)) { step in
                if showsProgress { Output.error("storerules ledger reconcile: \(step)") }
            }
        } catch let error as AppStoreServerAPIError {
            throw CommandFailure(ReconciliationAdvice.explanation(of: error, client: client))
        } catch let error as LedgerError {
            throw CommandFailure(ReconciliationAdvice.explanation(of: error, client: client))
        }
        if parsed.printsJSON {
            Output.line(try Output.json(summary))
        } else {
            let outcomes = { (counts: [String: Int]) in
                counts.isEmpty ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            }
            Output.line("""
                Window: \(Self.text(summary.windowStart)) to \(Self.text(summary.windowEnd))
                Notifications read: \(summary.notificationsRead) (\(outcomes(summary.notificationOutcomes)))
                Customers reconciled: \(summary.customers); transactions read: \(summary.transactionsRead) (\(outcomes(summary.transactionOutcomes))); renewal infos: \(summary.renewalInfosRead)
                Changes: \(summary.changes); checkpoint \(summary.checkpointMoved ? "moved to the window's end" : "kept")
                """ + summary.failures.map { "\nFailed: \($0)" }.joined())
        }
        try await answerRefundRequests(service: service, client: client, command: "ledger reconcile")
        return summary.failures.isEmpty ? 0 : 1
    }

    /// The service of `folder` over the ledger, roots, bundle, environment and app Apple ID the
    /// options give: what a command talking to the App Store Server API ingests and decides with.
    static func appStoreService(_ parsed: ParsedArguments, folder: String) throws -> Service {
        let rootPaths = try parsed.values(of: IngestOptions.root)
        guard !rootPaths.isEmpty else { throw UsageError("missing --root PEM: only verified data is ingested") }
        let configuration = ServiceConfiguration(
            folder: folder, ledger: try location(parsed), rootCertificates: try rootPaths.flatMap(VerifyCommand.rootCertificates(at:)),
            bundleId: try parsed.required(ServiceOptionDeclarations.bundleID), environment: try parsed.required(ServiceOptionDeclarations.environment),
            appAppleId: try parsed.value(of: IngestOptions.appAppleID))
        do {
            return try Service(configuration: configuration)
        } catch {
            throw CommandFailure(error.message)
        }
    }

    private static func text(_ milliseconds: Int64) -> String {
        Date(millisecondsSince1970: milliseconds).ISO8601Format()
    }
}
