import Foundation
import StoreCore
import Synchronization

/// Sends the ledger's outgoing events to a sink, at least once each, in each customer's order:
/// what `storerules serve --events-url` runs, and what an embedder runs with its own sink.
///
/// Each round takes due events from the outbox (``Ledger/claimOutgoingEvents(at:heldUntil:limit:)``:
/// the earliest undelivered event of each customer, held for ``Options/hold`` so that no other
/// instance of a fleet sends it meanwhile), sends them at once, a customer's next event waiting
/// for the previous, and records every result in one write. A failed event is tried again after
/// an exponential backoff with jitter, for ``Options/giveUpAfter`` from its creation; then it is
/// kept as failed (`storerules events retry` sends it again). ``stop()`` lets the round under
/// way end; an instance killed in the middle of a round leaves its events to be taken again
/// when their hold ends: a receiver may see an event twice, always with the same `webhook-id`.
///
/// Each round also reports what the clock alone changed since the last
/// (``Ledger/reviewOutgoingEventStates(limit:)``): periods that ended with nothing received.
public final class OutgoingEventDelivery: Sendable {
    /// How a delivery paces and bounds its work.
    public struct Options: Sendable {
        /// The types sent; the others are marked skipped. Every type when nil.
        public var types: Set<OutgoingEventType>?
        /// How long an event may keep failing, from its creation, before it is kept as failed.
        public var giveUpAfter: Duration = .seconds(3 * 24 * 3600)
        /// The pauses between attempts: doubling from 5 s to at most 6 h, with jitter.
        public var backoff = Backoff(maximumAttempts: .max, initialDelay: .seconds(5), maximumDelay: .seconds(6 * 3600))
        /// How many events one round takes.
        public var batchSize = 64
        /// How long an instance holds the events it took; longer than an attempt's timeout.
        public var hold: Duration = .seconds(60)
        /// How long an idle delivery waits before it looks at the outbox again.
        public var idlePause: Duration = .milliseconds(500)

        /// The defaults: every type, retried for 3 days.
        public init() {}
    }

    private let ledger: Ledger
    private let sink: any OutgoingEventSink
    private let options: Options
    private let metrics: ServiceMetrics?
    private let log: @Sendable (String) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let stopping = Atomic<Bool>(false)

    /// A delivery of `ledger`'s events to `sink`, counting in `metrics` and telling `log` of
    /// failures of the outbox itself (a failed attempt is the event's own record).
    public init(ledger: Ledger, sink: any OutgoingEventSink, options: Options = Options(), metrics: ServiceMetrics? = nil,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.ledger = ledger
        self.sink = sink
        self.options = options
        self.metrics = metrics
        self.log = log
    }

    /// Starts delivering in the background until ``stop()``: on `executor` when given, else on
    /// the global concurrent executor. A round's reads and writes of the ledger block the thread
    /// they run on, so an embedder whose own tasks share that pool may give delivery a thread of
    /// its own.
    public func start(on executor: (any TaskExecutor)? = nil) {
        stopping.store(false, ordering: .releasing)
        let task = Task(executorPreference: executor) { [self] in
            while !stopping.load(ordering: .acquiring) {
                do {
                    try ledger.reviewOutgoingEventStates()
                } catch {
                    log("outgoing events: \(error)")
                }
                let sent: Int
                do {
                    // A task of its own, which stopping does not cancel: its attempts end and are recorded.
                    let round = Task(executorPreference: executor) { [self] in try await deliverDueEvents() }
                    sent = try await round.value
                } catch {
                    log("outgoing events: the outbox could not be read or written: \(error)")
                    sent = 0
                }
                // Stopping cancels the task, which ends the pause at once.
                if sent == 0 { try? await Task.sleep(for: options.idlePause) }
            }
        }
        self.task.withLock { $0 = task }
    }

    /// Stops delivering and returns once it has: no round starts after the call, and the round
    /// under way ends as any round does — its attempts answered or timed out (the sink's timeout
    /// bounds the wait) and their results recorded — so a receiver that accepted an event is not
    /// sent it again. An instance killed instead leaves its round's events to be taken again
    /// when their hold ends.
    public func stop() async {
        stopping.store(true, ordering: .releasing)
        let task = task.withLock { $0 }
        // Cancelling ends an idle pause at once; the round under way is a task of its own.
        task?.cancel()
        await task?.value
    }

    /// One round: takes the events due now, sends them, records the results. Returns how many
    /// were taken.
    @discardableResult
    public func deliverDueEvents() async throws -> Int {
        let now = Date().millisecondsSince1970
        let heldUntil = now + Int64(options.hold.seconds * 1000)
        let events = try ledger.claimOutgoingEvents(at: now, heldUntil: heldUntil, limit: options.batchSize)
        guard !events.isEmpty else { return 0 }
        let results = await withTaskGroup(of: (OutgoingEvent, OutgoingEventAttempt, Double).self) { group in
            for event in events {
                group.addTask { [self] in
                    let started = ContinuousClock.now
                    let attempt = await attempt(event)
                    return (event, attempt, (ContinuousClock.now - started).seconds)
                }
            }
            var results: [(OutgoingEvent, OutgoingEventAttempt, Double)] = []
            for await result in group { results.append(result) }
            return results
        }
        try ledger.recordOutgoingEventAttempts(results.map { (id: $0.0.id, attempt: $0.1) }, heldUntil: heldUntil)
        for (event, attempt, seconds) in results {
            metrics?.recordOutgoingEventAttempt(attempt, seconds: seconds,
                                                sinceCreated: Double(Date().millisecondsSince1970 - event.createdDate) / 1000)
        }
        return events.count
    }

    /// One attempt at `event`, and what the outbox records of it.
    private func attempt(_ event: OutgoingEvent) async -> OutgoingEventAttempt {
        // A type a newer version wrote is sent unless the delivery takes named types only.
        if let types = options.types, !(event.type.map(types.contains) ?? false) { return .skipped }
        switch await sink.deliver(event) {
        case .accepted:
            return .delivered(at: Date().millisecondsSince1970)
        case .refused(let reason):
            return .failed(error: Self.recordable(reason))
        case .failed(let reason, let retryAfter):
            let now = Date().millisecondsSince1970
            var generator = SystemRandomNumberGenerator()
            // A receiver's Retry-After counts up to the time left, so no answer overflows the schedule.
            let pause = min(max(options.backoff.delay(beforeRetry: event.attempts + 1, using: &generator), retryAfter ?? .zero),
                            options.giveUpAfter + .seconds(1))
            let next = now + Int64(pause.seconds * 1000)
            guard next - event.attemptsSince <= Int64(options.giveUpAfter.seconds * 1000) else {
                return .failed(error: Self.recordable(reason) + "; given up \(Self.days(options.giveUpAfter)) after the first attempt")
            }
            return .retry(error: Self.recordable(reason), at: next)
        }
    }

    /// A failure's text as the outbox keeps it: at most 500 characters, control characters as spaces.
    static func recordable(_ reason: String) -> String {
        String(String.UnicodeScalarView(reason.unicodeScalars.prefix(500).map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    private static func days(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds >= 48 * 3600 { return "\(Int(seconds / 86_400)) days" }
        if seconds >= 3600 { return "\(Int(seconds / 3600)) hours" }
        return seconds >= 60 ? "\(Int(seconds / 60)) minutes" : "\(Int(seconds)) seconds"
    }
}
