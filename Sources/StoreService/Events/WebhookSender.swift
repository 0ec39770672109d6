import Foundation
import StoreCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends outgoing events to an HTTP receiver as the Standard Webhooks specification says: a
/// `POST` of the event's body, with `webhook-id` (the event's id, the same on every attempt),
/// `webhook-timestamp` (the attempt's time, in seconds) and `webhook-signature` (`v1,` and the
/// HMAC-SHA256 of `id.timestamp.body` under the secret).
///
/// Any `2xx` takes the event; a redirect is not followed and counts as a failure; `410 Gone`
/// refuses it for good; anything else, a timeout or a lost connection is tried again, after the
/// `Retry-After` the receiver asked for when it gave one.
public final class WebhookSender: OutgoingEventSink {
    /// Where events go.
    public let url: URL
    /// How long one attempt may take, from the first byte sent to the last byte of the answer.
    public let timeout: TimeInterval
    private let secret: WebhookSecret
    private let clock: @Sendable () -> Date
    private let session: URLSession

    /// A sender to `url`, signing with `secret` at the time `clock` gives, each attempt bounded by
    /// `timeout` seconds, with at most `connections` connections open to the receiver.
    public init(url: URL, secret: WebhookSecret, timeout: TimeInterval = 15, connections: Int = 64,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.url = url
        self.secret = secret
        self.timeout = timeout
        self.clock = clock
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpMaximumConnectionsPerHost = connections
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The headers of one attempt at `event`, signed at `timestamp` (seconds since 1970).
    public func headers(for event: OutgoingEvent, at timestamp: Int64) -> [String: String] {
        [
            "content-type": "application/json",
            "webhook-id": event.id,
            "webhook-timestamp": String(timestamp),
            "webhook-signature": secret.signature(id: event.id, timestamp: timestamp, body: event.body),
        ]
    }

    public func deliver(_ event: OutgoingEvent) async -> OutgoingEventSinkResult {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        for (name, value) in headers(for: event, at: Int64(clock().timeIntervalSince1970)) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = Data(event.body.utf8)
        let response: URLResponse
        do {
            (_, response) = try await session.data(for: request)
        } catch {
            return .failed("POST \(Self.printable(url)): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { return .failed("the answer is not HTTP") }
        switch http.statusCode {
        case 200..<300:
            return .accepted
        case 410:
            return .refused("HTTP 410 Gone: the receiver asked for no more events")
        default:
            let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return .failed("HTTP \(http.statusCode)", retryAfter: retryAfter.map { .seconds(max($0, 0)) })
        }
    }
}

extension WebhookSender {
    /// `url` as logs and the outbox may show it: without its query, which may carry a token, and
    /// with a password written `***`.
    public static func printable(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the events URL" }
        components.query = nil
        components.fragment = nil
        if components.password != nil { components.password = "***" }
        return components.string ?? "the events URL"
    }
}

/// Refuses every redirect, so a `3xx` answer ends the attempt as a failure.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
