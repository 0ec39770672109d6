import StoreCore

/// Where ``OutgoingEventDelivery`` sends each event: an HTTP receiver (``WebhookSender``), or an
/// embedder's own code, which gets the same events, from the same outbox, after they commit.
public protocol OutgoingEventSink: Sendable {
    /// Delivers one event; called again with the same event (same id and body) after a failure.
    func deliver(_ event: OutgoingEvent) async -> OutgoingEventSinkResult
}

/// How one delivery ended.
public enum OutgoingEventSinkResult: Sendable, Hashable {
    /// The receiver took the event.
    case accepted
    /// It did not; another attempt follows, no sooner than `retryAfter` when the receiver named one.
    case failed(String, retryAfter: Duration? = nil)
    /// It never will (the receiver answered `410 Gone`): the event is kept as failed.
    case refused(String)
}

/// An embedder's closure as a sink: the event is taken when it returns, and tried again when it throws.
public struct OutgoingEventCallback: OutgoingEventSink {
    private let body: @Sendable (OutgoingEvent) async throws -> Void

    /// A sink that calls `body` with each event.
    public init(_ body: @escaping @Sendable (OutgoingEvent) async throws -> Void) {
        self.body = body
    }

    public func deliver(_ event: OutgoingEvent) async -> OutgoingEventSinkResult {
        do {
            try await body(event)
            return .accepted
        } catch {
            return .failed("\(error)")
        }
    }
}
