import AppStoreServerAPI
import CommandLineOptions
import Foundation
import ServiceCommandLine
import StoreCore
import StoreService

extension LedgerCommand {
    /// `ledger consumption --ledger URL [--json]`: the refund requests Apple asked about, oldest
    /// first, with what was decided and sent for each, and whether the ledger granted its
    /// transaction.
    static func consumption(_ parsed: ParsedArguments) throws -> Int32 {
        try parsed.expectPositionals(atMost: 1)
        let ledger = try location(parsed).openForCommand(mustExist: true)
        let requests = try ledger.consumptionRequests()
        let deliveries = try requests.map { try ledger.delivery(ofTransaction: $0.transactionID) }
        if parsed.printsJSON {
            Output.line(try Output.json(zip(requests, deliveries).map { ConsumptionRequestJSON($0, delivery: $1) }))
            return 0
        }
        guard !requests.isEmpty else {
            Output.line("No refund request.")
            return 0
        }
        for (request, delivery) in zip(requests, deliveries) {
            var line = "\(request.notificationUUID)  transaction \(request.transactionID) \(granted(delivery))  "
                + "\(request.reason ?? "no reason")  " + request.state.rawValue
            if let answer = request.answer {
                line += "  " + describe(answer)
            }
            line += "  (attempts: \(request.attempts))"
            if let error = request.lastError { line += "  \(error)" }
            Output.line(line)
        }
        return 0
    }

    /// Whether and when the ledger granted a request's transaction, in a phrase.
    private static func granted(_ delivery: TransactionDelivery) -> String {
        guard delivery.isGranted else { return "not granted" }
        return delivery.grantedDate.map { "granted \($0.formatted(.iso8601))" } ?? "granted"
    }

    /// An answer in one phrase: delivery, consumption, preference.
    private static func describe(_ answer: ConsumptionAnswer) -> String {
        var parts = [answer.deliveryStatus.rawValue]
        if let percentage = answer.consumptionPercentage {
            parts.append("\((Double(percentage) / 1000).formatted(.number.precision(.fractionLength(0...3))))% consumed")
        }
        if let preference = answer.refundPreference { parts.append(preference.rawValue) }
        if answer.sampleContentProvided { parts.append("sample provided") }
        return parts.joined(separator: ", ")
    }

    /// The App Store Server API client the options (or the environment) give, for the app
    /// `service` verifies.
    static func client(_ parsed: ParsedArguments, service: Service) throws -> AppStoreServerAPIClient {
        do {
            return try AppStoreAPIOptionDeclarations.client(parsed, verifier: service.verifier)
        } catch let error as AppStoreServerAPIKeyError {
            throw CommandFailure(error.description)
        } catch let error as AppStoreServerAPIError {
            throw UsageError(error.description)
        }
    }

    /// Answers the refund requests due in `service`'s ledger through `client`, one line on
    /// standard error for each.
    static func answerRefundRequests(service: Service, client: AppStoreServerAPIClient, command: String) async throws {
        do {
            for attempt in try await ConsumptionResponder(service: service, client: client).answerDue() {
                Output.error("storerules \(command): \(ConsumptionSchedule.describe(attempt))")
            }
        } catch {
            throw CommandFailure("the refund requests: \(error)")
        }
    }
}
