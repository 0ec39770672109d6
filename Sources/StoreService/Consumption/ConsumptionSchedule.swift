import Foundation
import Synchronization

/// Answers refund requests in the background: at once when the service records a new one or
/// grants a transaction one waits for, and every ``interval`` for those waiting to be retried
/// or to look again for their transaction's grant. What `storerules serve` runs when it
/// is given the App Store Server API's options.
public final class ConsumptionSchedule: Sendable {
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let wakes: AsyncStream<Void>.Continuation
    /// How often due requests are looked for without a wake: a minute.
    public static let interval: Duration = .seconds(60)

    /// Starts answering with `responder`, telling `log` what each attempt did in one line.
    public init(responder: ConsumptionResponder, log: @escaping @Sendable (String) -> Void) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wakes = continuation
        responder.service.onConsumptionRequest { continuation.yield() }
        let task = Task {
            continuation.yield()
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.interval)
                    continuation.yield()
                }
            }
            defer { ticker.cancel() }
            for await _ in stream {
                if Task.isCancelled { return }
                do {
                    for attempt in try await responder.answerDue() {
                        log(Self.describe(attempt))
                    }
                } catch {
                    log("refund requests: the ledger failed: \(error)")
                }
            }
        }
        self.task.withLock { $0 = task }
    }

    /// One line on an attempt.
    public static func describe(_ attempt: ConsumptionAttempt) -> String {
        let request = attempt.request
        let about = "refund request \(request.notificationUUID) (transaction \(request.transactionID))"
        switch request.state {
        case .answered where request.lastError != nil: return "\(about): answered: \(request.lastError ?? "")"
        case .answered: return "\(about): answered"
        case .pending where attempt.isWaitingForGrant: return "\(about): \(request.lastError ?? "waiting for its transaction's grant")"
        case .pending: return "\(about): will retry: \(request.lastError ?? "")"
        case .unanswered, .refused, .expired: return "\(about): \(request.state.rawValue): \(request.lastError ?? "")"
        }
    }

    /// Stops answering; an attempt under way finishes.
    public func stop() {
        wakes.finish()
        task.withLock { $0?.cancel() }
    }
}
