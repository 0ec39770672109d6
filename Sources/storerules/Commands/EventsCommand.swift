import CommandLineOptions
import Foundation
import ServiceCommandLine
import StoreCore
import StoreService

/// `storerules events secret|list|retry|replay`: the signing secret of outgoing events, and the
/// ledger's outbox for an operator.
enum EventsCommand: Command {
    static let name = "events"
    static let summary = "Outgoing events: make a signing secret; list, retry or replay the ledger's events"
    static var help: String { """
    Usage: storerules events secret FILE
           storerules events list --ledger URL [--state STATE] [--customer ID] [--since TIME] [--limit N] [--json]
           storerules events retry --ledger URL [--customer ID] [ID…]
           storerules events replay --ledger URL (--customer ID | --since TIME | ID…)
           storerules events prune --ledger URL --before TIME

    `serve --events-url URL --events-secret FILE` records each change of a customer as an event in
    the ledger, in the same write as the change, and POSTs it to URL signed as the Standard Webhooks
    specification says. A failing event is retried for three days, then kept as failed: `retry`
    sends failed events again, `replay` sends delivered ones again, each with its id and body.
    `prune` deletes delivered and skipped events written before TIME; pending and failed ones stay.

    Commands:
    \(HelpText.subcommands(subcommands))
    """ }

    static let ledger = ServiceOptionDeclarations.ledger.withHelp(
        "The ledger: a SQLite file's path, or a postgres:// or postgresql:// URL. Required.")
    static let state = TypedOption<OutgoingEvent.DeliveryState>.value(
        "state", "STATE", help: "Only events in this state: pending, delivered, failed or skipped."
    ) { text throws(UsageError) in
        guard let state = OutgoingEvent.DeliveryState(rawValue: text) else {
            throw UsageError("--state must be pending, delivered, failed or skipped, not '\(text)'")
        }
        return state
    }
    static let customer = TypedOption<String>.text("customer", "ID", help: "Only this customer's events.")
    static let since = TypedOption<Date>.time("since", help: "Only events written at or after this time.")
    static let before = TypedOption<Date>.time("before", help: "Delete the delivered and skipped events written before this time. Required.")
    static let limit = TypedOption<Int>.count("limit", in: 1...100_000, help: "List at most N events, the latest first (default 100).")
    static let jsonFlag = CommandOption.json(help: "Print the events as JSON lines, each with its body.")

    static let subcommands: [Subcommand] = [
        Subcommand("secret", arguments: "FILE", summary: "Write a new signing secret (whsec_…) to FILE, readable by its owner only; "
                   + "it is never printed.", options: []),
        Subcommand("list", summary: "The outbox's events, the latest first, with their delivery state and last error.",
                   options: [ledger.option, state.option, customer.option, since.option, limit.option, jsonFlag]),
        Subcommand("retry", arguments: "[ID…]", summary: "Send failed events again (these, or the customer's, or all).",
                   options: [ledger.option, customer.option]),
        Subcommand("replay", arguments: "[ID…]", summary: "Send events again whatever their state: these, the customer's, or "
                   + "those written since TIME.", options: [ledger.option, customer.option, since.option]),
        Subcommand("prune", summary: "Delete the delivered and skipped events written before TIME; pending and failed ones stay.",
                   options: [ledger.option, before.option]),
    ]

    static let syntax = CommandSyntax(name, options: [], subcommands: subcommands)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let command = try parsed.positional(0, "an events command (see --help)")
        switch command {
        case "secret": return try writeSecret(parsed)
        case "list": return try list(parsed)
        case "retry", "replay": return try requeue(parsed, replay: command == "replay")
        case "prune": return try prune(parsed)
        default: throw UsageError("unknown events command '\(command)' (secret, list, retry, replay, prune)")
        }
    }

    /// `events secret FILE`: a new secret in a new owner-only file.
    private static func writeSecret(_ parsed: ParsedArguments) throws -> Int32 {
        let path = try parsed.positional(1, "the FILE to write the secret to")
        try parsed.expectPositionals(atMost: 2)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, OwnerOnlyFile.mode)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "it exists; a secret is never overwritten" : String(cString: strerror(errno))
            throw CommandFailure("cannot write \(path): \(reason)")
        }
        fchmod(descriptor, OwnerOnlyFile.mode)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data((WebhookSecret.generate().text + "\n").utf8))
        try handle.close()
        Output.line("wrote a new signing secret to \(path) (mode 0600)")
        return 0
    }

    /// `events list`: the selected events as a table, or JSON lines.
    private static func list(_ parsed: ParsedArguments) throws -> Int32 {
        try parsed.expectPositionals(atMost: 1)
        let query = OutgoingEventQuery(
            state: try parsed.value(of: state), customerID: try parsed.value(of: customer),
            since: try parsed.value(of: since)?.millisecondsSince1970, limit: try parsed.value(of: limit) ?? 100)
        let events = try openLedger(parsed).outgoingEvents(query)
        if parsed.printsJSON {
            for event in events { Output.line(try Output.json(ListedEvent(event), pretty: false)) }
            return 0
        }
        guard !events.isEmpty else {
            Output.line("no events")
            return 0
        }
        for event in events {
            let created = Date(millisecondsSince1970: event.createdDate).formatted(.iso8601)
            let error = event.lastError.map { "  last error: \($0)" } ?? ""
            Output.line("\(event.id)  \(event.customerID) #\(event.sequence)  \(event.typeName)  \(event.state.rawValue)  "
                        + "\(event.attempts) attempt\(event.attempts == 1 ? "" : "s")  \(created)\(error)")
        }
        return 0
    }

    /// `events retry` (failed events) and `events replay` (any state but pending).
    private static func requeue(_ parsed: ParsedArguments, replay: Bool) throws -> Int32 {
        let ids = Array(parsed.positionals.dropFirst())
        let customerID = try parsed.value(of: customer)
        let since = replay ? try parsed.value(of: since)?.millisecondsSince1970 : nil
        if replay, ids.isEmpty, customerID == nil, since == nil {
            throw UsageError("events replay needs the events to send again: IDs, --customer ID or --since TIME")
        }
        let query = OutgoingEventQuery(state: replay ? nil : .failed, customerID: customerID, ids: ids, since: since)
        let count = try openLedger(parsed).requeueOutgoingEvents(query, at: Date().millisecondsSince1970)
        Output.line("\(count) event\(count == 1 ? "" : "s") to send again, with \(count == 1 ? "its" : "their") id and body")
        return 0
    }

    /// `events prune --before TIME`: the sent events written before TIME deleted.
    private static func prune(_ parsed: ParsedArguments) throws -> Int32 {
        try parsed.expectPositionals(atMost: 1)
        guard let date = try parsed.value(of: before) else { throw UsageError("events prune needs --before TIME") }
        let count = try openLedger(parsed).pruneOutgoingEvents(writtenBefore: date.millisecondsSince1970)
        Output.line("deleted \(count) delivered or skipped event\(count == 1 ? "" : "s") written before \(date.formatted(.iso8601))")
        return 0
    }

    private static func openLedger(_ parsed: ParsedArguments) throws -> Ledger {
        guard let location = try parsed.value(of: ledger) else { throw UsageError("missing --ledger URL") }
        return try location.openForCommand(mustExist: true)
    }

    /// One event as `events list --json` prints it.
    struct ListedEvent: Encodable {
        let id: String
        let customer: String
        let sequence: Int64
        let type: String
        let state: String
        let attempts: Int
        let createdDate: Int64
        let nextAttemptDate: Int64
        let lastError: String?
        let deliveredDate: Int64?
        let body: String

        init(_ event: OutgoingEvent) {
            id = event.id
            customer = event.customerID
            sequence = event.sequence
            type = event.typeName
            state = event.state.rawValue
            attempts = event.attempts
            createdDate = event.createdDate
            nextAttemptDate = event.nextAttemptDate
            lastError = event.lastError
            deliveredDate = event.deliveredDate
            body = event.body
        }

        private enum CodingKeys: String, CodingKey {
            case id, customer, sequence, type, state, attempts, createdDate = "created_date", nextAttemptDate = "next_attempt_date"
            case lastError = "last_error", deliveredDate = "delivered_date", body
        }
    }
}
