import AppStoreServerAPI
import Foundation
import LuaBridge
import StoreCore
import StorePolicy

/// Answers the refund requests Apple asks about: for each request the ledger keeps that is due,
/// it asks the policy's `consumption` hook on the customer's state as the ledger knows it, keeps
/// the decision, and sends it with the App Store Server API client until Apple accepts it or its
/// window closes — recording every answer and failure in the ledger.
///
/// Each attempt first takes the request in the ledger for ``attemptHold``, so the processes of
/// a fleet never attempt one request at once; a decision is kept before it is sent, so a retry
/// sends the same answer rather than deciding again.
public final class ConsumptionResponder: Sendable {
    /// The service whose ledger keeps the requests and whose policy decides.
    public let service: Service
    /// The client that sends the answers.
    public let client: AppStoreServerAPIClient
    /// Where each decision is counted and logged.
    public let recorder: DecisionRecorder
    /// How long one attempt holds a request: 60 seconds.
    public static let attemptHold: Int64 = 60_000
    /// The wait after a failed attempt: a minute, doubling, at most 30 minutes, with no jitter
    /// (a request's next attempt is kept in the ledger, not slept on). Attempts go on until
    /// Apple's window closes, however many that takes.
    public static let backoff = Backoff(maximumAttempts: .max, initialDelay: .seconds(60), maximumDelay: .seconds(30 * 60), jitter: .none)
    /// How long before Apple's window closes a request whose transaction the ledger has not
    /// granted is decided anyway, with `tx.granted` false: an hour, which leaves the retries of
    /// a send time to reach Apple.
    public static let ungrantedDecisionLead: Int64 = 60 * 60_000
    /// How often a request waiting for its transaction's grant looks again: 5 minutes. A grant
    /// the service makes as it registers a customer or retries (``Service/onConsumptionRequest(_:)``'s
    /// wake) makes it due at once.
    public static let grantCheckInterval: Int64 = 5 * 60_000

    /// A responder for `service`'s requests, sending through `client` and recording each
    /// decision with `recorder`.
    public init(service: Service, client: AppStoreServerAPIClient, recorder: DecisionRecorder = DecisionRecorder()) {
        self.service = service
        self.client = client
        self.recorder = recorder
    }

    /// Attempts every request due at `now`, oldest first, and returns what became of each.
    ///
    /// - Throws: ``StoreCore/LedgerError`` when the ledger cannot be read or written.
    public func answerDue(now: Date = Date()) async throws -> [ConsumptionAttempt] {
        var attempts: [ConsumptionAttempt] = []
        let start = now.millisecondsSince1970
        for due in try service.ledger.dueConsumptionRequests(at: start) {
            guard let request = try service.ledger.claimConsumptionRequest(
                notificationUUID: due.notificationUUID, at: start, heldUntil: start + Self.attemptHold)
            else { continue }
            let attempted = await attempt(request, now: now)
            try service.ledger.updateConsumptionRequest(attempted.request)
            attempts.append(attempted)
        }
        return attempts
    }

    /// One attempt: decide when nothing is decided yet — or wait for the transaction's grant —
    /// then send what is.
    private func attempt(_ request: ConsumptionRequestRecord, now: Date) async -> ConsumptionAttempt {
        var request = request
        let milliseconds = now.millisecondsSince1970
        guard milliseconds < request.deadlineDate else {
            request.state = .expired
            request.lastError = "Apple's window for an answer closed at \(Date(millisecondsSince1970: request.deadlineDate).formatted(.iso8601))"
            return ConsumptionAttempt(request: request, delivery: nil, isWaitingForGrant: false)
        }
        var delivery: TransactionDelivery?
        if request.answer == nil {
            let decided = decide(&request, now: now)
            delivery = decided.delivery
            guard request.state == .pending, request.answer != nil else {
                return ConsumptionAttempt(request: request, delivery: delivery, isWaitingForGrant: decided.waiting)
            }
        } else {
            request.attempts += 1
        }
        guard let answer = request.answer else { return ConsumptionAttempt(request: request, delivery: delivery, isWaitingForGrant: false) }
        do {
            try await client.sendConsumptionInformation(ConsumptionRequest(answer), transactionID: request.transactionID)
            request.state = .answered
            request.answeredDate = Date().millisecondsSince1970
            request.lastError = Self.decisionNote(in: request.lastError)
        } catch {
            request.lastError = [Self.decisionNote(in: request.lastError), "sending: \(error)"].compactMap { $0 }.joined(separator: "; ")
            if error.isRetryable {
                request.nextAttemptDate = milliseconds + Self.wait(afterAttempt: request.attempts)
            } else {
                request.state = .refused
            }
        }
        return ConsumptionAttempt(request: request, delivery: delivery, isWaitingForGrant: false)
    }

    /// Asks the `consumption` hook about `request`, on the customer's state now and what the
    /// ledger delivered of the transaction — or, while the ledger may still grant the
    /// transaction and Apple's window leaves time, leaves it pending until the grant (see
    /// ``grantCheckInterval``). Returns the delivery it read, when it read one, and whether it waits.
    private func decide(_ request: inout ConsumptionRequestRecord, now: Date) -> (delivery: TransactionDelivery?, waiting: Bool) {
        let milliseconds = now.millisecondsSince1970
        let transaction: JWSTransactionDecodedPayload
        do {
            // Verified when the notification came; read here as the ledger kept it.
            transaction = try CompactJWS(parsing: request.transactionJWS).decodePayload(as: JWSTransactionDecodedPayload.self)
        } catch {
            request.attempts += 1
            request.state = .unanswered
            request.lastError = "the kept transaction cannot be read: \(error)"
            return (nil, false)
        }
        // A ledger that cannot be read now is tried again later: deciding as for a customer not
        // known would send Apple an answer about nobody.
        let delivery: TransactionDelivery
        let context: PolicyContext
        do {
            delivery = try service.ledger.delivery(ofTransaction: request.transactionID)
            let lastCall = request.deadlineDate - Self.ungrantedDecisionLead
            if delivery.mayStillBeGranted, milliseconds < lastCall {
                request.lastError = try waitingNote(request, delivery: delivery, lastCall: lastCall)
                request.nextAttemptDate = min(milliseconds + Self.grantCheckInterval, lastCall)
                return (delivery, true)
            }
            context = try service.context(ofTransaction: request.transactionID, storefront: transaction.storefront ?? "USA", now: now).context
        } catch {
            request.attempts += 1
            request.lastError = "deciding: \((error as? ServiceError)?.message ?? String(describing: error))"
            request.nextAttemptDate = milliseconds + Self.wait(afterAttempt: request.attempts)
            return (nil, false)
        }
        request.attempts += 1
        let refund = RefundRequest(reason: request.reason, notificationUUID: request.notificationUUID,
                                   requestedAt: Date(millisecondsSince1970: request.deadlineDate - ConsumptionRequestRecord.answerWindowMilliseconds),
                                   deadline: Date(millisecondsSince1970: request.deadlineDate))
        let started = ContinuousClock.now
        let decision = service.engine.consumption(context, transaction: transaction, delivery: delivery, request: refund)
        recorder.record(hook: PolicyHook.consumption.name, requestID: request.notificationUUID,
                        customer: context.customer.id.isEmpty ? nil : context.customer.id,
                        inputs: [.string(request.transactionID), .table(LuaTable(hash: delivery.luaFieldTable)), .string(request.reason ?? "")],
                        result: decision.value.map { .value($0.luaValue) } ?? .null, source: decision.source.name,
                        policyVersion: service.engine.version, started: started, fallbackReason: decision.failure?.description)
        switch decision.source {
        case .defaultForMissingHook:
            request.state = .unanswered
            request.lastError = "the policy defines no consumption hook: nothing is sent"
        case .fallback(let failure):
            request.lastError = "deciding: \(failure.description)"
            request.nextAttemptDate = milliseconds + Self.wait(afterAttempt: request.attempts)
        case .policy:
            request.policyVersion = service.engine.version
            if let answer = decision.value {
                request.answer = answer
                request.lastError = delivery.isGranted ? nil : Self.ungrantedNote(request, delivery: delivery)
            } else {
                request.state = .unanswered
                request.lastError = "the consumption hook answered nil: nothing is sent"
            }
        }
        return (delivery, false)
    }

    /// Why a request waits: its transaction is not granted, and why not, and when it is decided anyway.
    private func waitingNote(_ request: ConsumptionRequestRecord, delivery: TransactionDelivery, lastCall: Int64) throws -> String {
        let until = Date(millisecondsSince1970: lastCall).formatted(.iso8601)
        return "waiting for the ledger to grant transaction \(request.transactionID) (\(try whyNotGranted(request, delivery: delivery))); "
            + "the hook is asked once it is granted, or at \(until) with tx.granted = false"
    }

    /// Why the ledger has not granted the request's transaction, in a phrase.
    private func whyNotGranted(_ request: ConsumptionRequestRecord, delivery: TransactionDelivery) throws -> String {
        switch delivery.grantState {
        case .unfinished(let reason)?: return "stored unfinished: \(reason)"
        case .revokedBeforeGrant?: return "revoked before it was granted"
        case .granted?: return "granted"
        case nil:
            let kept = try service.ledger.pendingNotifications().contains { $0.transactionID == request.transactionID }
            return kept ? "not stored: its notification is kept until a customer registers its app account token"
                : "not stored: no purchase of it has reached the ledger"
        }
    }

    /// How the note of a decision made without the transaction's grant begins.
    private static let ungrantedNotePrefix = "decided with tx.granted = false: "

    /// What a decision made without the transaction's grant says: that the hook was told so.
    private static func ungrantedNote(_ request: ConsumptionRequestRecord, delivery: TransactionDelivery) -> String {
        let why = delivery.grantState == .revokedBeforeGrant ? "it was revoked before it was granted"
            : "the ledger had not granted it when Apple's window was about to close"
        return ungrantedNotePrefix + "\(why) (transaction \(request.transactionID))"
    }

    /// The note of a decision made without the transaction's grant in `lastError`, without the
    /// failure of a send after it: what stays with the request once the answer is sent.
    private static func decisionNote(in lastError: String?) -> String? {
        guard let lastError, lastError.hasPrefix(ungrantedNotePrefix) else { return nil }
        return lastError.components(separatedBy: "; sending: ").first
    }

    /// The wait after `attempt` failed, in milliseconds: ``backoff``'s step.
    static func wait(afterAttempt attempt: Int) -> Int64 {
        backoff.step(beforeRetry: attempt).wholeMilliseconds
    }
}

/// What one attempt at a refund request did.
public struct ConsumptionAttempt: Sendable, Encodable {
    /// The request as the attempt left it.
    public let request: ConsumptionRequestRecord
    /// What the ledger had delivered of its transaction, when the attempt decided or waited.
    public let delivery: TransactionDelivery?
    /// Whether the attempt left the request waiting for its transaction's grant.
    public let isWaitingForGrant: Bool

    /// The request's notification UUID.
    public var notificationUUID: String { request.notificationUUID }
    /// Its state after the attempt.
    public var state: ConsumptionRequestRecord.State { request.state }

    public func encode(to encoder: any Encoder) throws {
        try ConsumptionRequestJSON(request, delivery: delivery).encode(to: encoder)
    }
}
