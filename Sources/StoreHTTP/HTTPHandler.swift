import StoreCore
import StoreService

/// What an ``HTTPServer`` serves: an answer to each request, and the shape of the answers the
/// transport gives itself (a malformed request, a body over the cap, a connection over a cap).
///
/// ``StoreService/HTTPRouter`` is the service's; the local store's App Store Server API is
/// another, whose refusals are Apple's error bodies.
public protocol HTTPHandler: Sendable {
    /// The answer to `request`.
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The answer to a request the transport refused before any route saw it.
    func refusal(status: Int, kind: String, message: String) -> HTTPResponse
    /// Counts an answer the transport gave itself.
    func recordRefusal(method: String?, status: Int)
    /// The `X-Request-Id` an answer the transport gives itself carries, for a request that sent
    /// `header` as its own (nil when it sent none or its head could not be read); nil for none.
    func refusalRequestID(header: String?) -> String?
    /// Tells of a connection refused at once for a cap (`server` or `address`) from `client`.
    func connectionRefused(cap: String, client: String)
    /// Whether `request` is answered from memory alone, never waiting on anything outside the
    /// process: the server answers it at once, outside its route slots.
    func answersFromMemory(_ request: HTTPRequest) -> Bool
    /// Tells of the certificate the server serves TLS with, once, as it starts.
    func servesTLS(certificate: X509Certificate)
}

extension HTTPHandler {
    /// Nothing is told.
    public func connectionRefused(cap: String, client: String) {}

    /// None: the transport's answers carry no `X-Request-Id` (the local store's App Store
    /// Server API, whose answers carry none).
    public func refusalRequestID(header: String?) -> String? {
        nil
    }

    /// No request: every one runs in a route slot.
    public func answersFromMemory(_ request: HTTPRequest) -> Bool {
        false
    }

    /// Nothing is told.
    public func servesTLS(certificate: X509Certificate) {}
}

extension HTTPRouter: HTTPHandler {
    /// The service's JSON error.
    public func refusal(status: Int, kind: String, message: String) -> HTTPResponse {
        .error(status, kind: kind, message: message)
    }

    /// The router's id for a request: `header` when it is a usable id, else a new one
    /// (``StoreService/HTTPRouter/requestID(fromHeader:)``), as the router marks its own answers.
    public func refusalRequestID(header: String?) -> String? {
        HTTPRouter.requestID(fromHeader: header)
    }

    /// Counted under the route `unmatched`.
    public func recordRefusal(method: String?, status: Int) {
        metrics.recordRequest(route: "unmatched", method: HTTPRouter.methodLabel(method ?? "other"), status: status, seconds: 0)
    }

    /// Counted by cap, and logged at most once a minute for each cap.
    public func connectionRefused(cap: String, client: String) {
        recordConnectionRefusal(cap: cap, client: client)
    }

    /// The liveness probe (``StoreService/HTTPRouter/isLivenessProbe(_:)``), so that `/healthz`
    /// answers while every route slot waits on the ledger.
    public func answersFromMemory(_ request: HTTPRequest) -> Bool {
        HTTPRouter.isLivenessProbe(request)
    }

    /// Recorded in the metrics, which report when it stops being valid.
    public func servesTLS(certificate: X509Certificate) {
        metrics.recordTLSCertificate(certificate)
    }
}
