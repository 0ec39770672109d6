import CommandLineOptions
import ServiceCommandLine
import Foundation
import StoreCore
import StoreService

extension LedgerCommand {
    /// `ledger ingest DIR --ledger URL --root PEM... [FILE|-]`: each line verified, stored and
    /// granted by the service, as the service's own requests are; exit status 1 when a line failed.
    static func ingest(_ parsed: ParsedArguments) async throws -> Int32 {
        let folder = try parsed.positional(1, "the policy folder DIR")
        let input = parsed.positionals.count > 2 ? parsed.positionals[2] : "-"
        try parsed.expectPositionals(atMost: 3)
        let ledger = try location(parsed)
        let rootPaths = try parsed.values(of: IngestOptions.root)
        guard !rootPaths.isEmpty else { throw UsageError("missing --root PEM: only verified data is ingested") }
        let customer = try parsed.value(of: IngestOptions.customer)
        let configuration = ServiceConfiguration(
            folder: folder, ledger: ledger, rootCertificates: try rootPaths.flatMap(VerifyCommand.rootCertificates(at:)),
            bundleId: try parsed.value(of: IngestOptions.bundleID) ?? StoreCommand.defaultBundleID,
            environment: try parsed.value(of: IngestOptions.environment) ?? .xcode,
            appAppleId: try parsed.value(of: IngestOptions.appAppleID))
        let text: String
        do {
            text = try InputFile.readText(input)
        } catch {
            throw CommandFailure(error.description)
        }
        let service: Service
        do {
            service = try Service(configuration: configuration)
        } catch {
            throw CommandFailure(error.message)
        }
        var failed = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            let result = ingestLine(trimmed, number: index + 1, customer: customer, service: service)
            failed = failed || result.error != nil
            Output.line(try Output.json(result))
        }
        if try AppStoreAPIOptionDeclarations.isGiven(parsed) {
            try await answerRefundRequests(service: service, client: try client(parsed, service: service), command: "ledger ingest")
        }
        return failed ? 1 : 0
    }

    /// What ingesting one input line did.
    private static func ingestLine(_ text: String, number: Int, customer: String?, service: Service) -> LedgerIngestLine {
        do throws(ServiceError) {
            let operation = try ingestOperation(text, customer: customer)
            guard let line = LedgerIngestLine(line: number, answer: try service.answer(operation), customer: customer) else {
                throw ServiceError.unencodable("the service gave no ingest answer")
            }
            return line
        } catch {
            return LedgerIngestLine(line: number, error: error)
        }
    }

    /// The service operation an input line asks for: `{"signedPayload": …}` or a compact JWS
    /// whose payload is a notification ingests a notification; one whose payload is a
    /// transaction ingests it for `customer`.
    static func ingestOperation(_ text: String, customer: String?) throws(ServiceError) -> ServiceRequest {
        if text.hasPrefix("{") {
            guard let body = try? JSONDecoder().decode(NotificationRequestBody.self, from: Data(text.utf8)) else {
                throw .badRequest(#"a JSON line must be a notification's request body {"signedPayload": "…"}"#)
            }
            return .ingestNotification(jws: body.signedPayload, customerID: customer)
        }
        let jws: CompactJWS
        do {
            jws = try CompactJWS(parsing: text)
        } catch {
            throw .badRequest("neither a compact JWS nor {\"signedPayload\": …}: \(error)")
        }
        switch PayloadFieldNames(of: jws.payload).flatMap(VerifyCommand.kind(shownBy:)) {
        case .notification:
            return .ingestNotification(jws: text, customerID: customer)
        case .transaction:
            guard let customer else { throw .badRequest("a signed transaction needs --customer") }
            return .ingestTransaction(customerID: customer, jws: text)
        case .renewal:
            throw .badRequest("renewal info is ingested with the notification that carries it")
        case nil:
            throw .badRequest("the payload is neither a transaction nor a notification")
        }
    }
}

/// A notification's request body as Apple posts it, `{"signedPayload": "…"}`; other fields pass.
private struct NotificationRequestBody: Decodable {
    /// The notification's compact JWS.
    let signedPayload: String
}
