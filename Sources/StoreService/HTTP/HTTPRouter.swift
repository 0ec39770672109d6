import AppStoreServerAPI
import Foundation
import StoreCore
import StorePolicy

/// StoreRules' HTTP API over a ``Service``, apart from any transport: a transport hands over
/// an ``HTTPRequest`` and sends back the ``HTTPResponse``.
///
/// A request passes through a chain of middleware composed here, in this order: its id
/// (``RequestIDMiddleware``), its metrics, the rendering of every error as the JSON body
/// `{"error": {"kind", "message"}}`, strict percent-decoding, routing (`404`, `405`), the
/// caller's key for the route's role (`401`, `403`) and the body and query limits (`413`,
/// `400`); then the route runs. Safe to call from any number of threads.
public final class HTTPRouter: Sendable {
    /// The largest body a request may carry.
    public static let maximumBodyBytes = 64 * 1024

    /// The service the routes call.
    public let service: Service
    /// Who may call which route.
    public let access: AccessControl
    /// What the routes count.
    public let metrics: ServiceMetrics
    /// Where each decision is counted and logged: the decision route's, the retention
    /// responder's, and those of any responder the service runs beside the router.
    public let recorder: DecisionRecorder
    /// The decisions of the last day and their latest failures, which the operator page shows.
    public let recentDecisions = RecentDecisions()
    /// The fleet's policy releases, which the operator page lists, when the service follows them.
    public let releases: (any PolicyReleaseFeed)?
    /// Where log lines about requests go, each with its request id.
    public let log: @Sendable (String) -> Void
    /// What answers Apple's Retention Messaging requests.
    public let retention: RetentionResponder
    /// Lines about refused notifications, one of each kind a minute.
    let refusals: RateLimitedLog
    private let middleware: [any HTTPMiddleware]

    /// A router over `service`, checking callers with `access`, counting in `metrics` and logging
    /// each decision to `decisionLog`; log lines go to `log` (standard error by default).
    /// Promotional offers in retention messages are signed with `offerSigner`; without one,
    /// such a message answers Apple's default. The operator page lists the fleet's `releases`,
    /// when the service follows them.
    public init(service: Service, access: AccessControl, metrics: ServiceMetrics = ServiceMetrics(), decisionLog: DecisionLog? = nil,
                offerSigner: PromotionalOfferSignatureIssuer? = nil, releases: (any PolicyReleaseFeed)? = nil,
                log: @escaping @Sendable (String) -> Void = HTTPRouter.standardErrorLog) {
        self.service = service
        self.releases = releases
        self.access = access
        self.metrics = metrics
        recorder = DecisionRecorder(metrics: metrics, log: decisionLog, recent: recentDecisions)
        self.log = log
        refusals = RateLimitedLog(write: log)
        retention = RetentionResponder(service: service, offerSigner: offerSigner, metrics: metrics, recorder: recorder, log: log)
        middleware = [
            RequestIDMiddleware(),
            MetricsMiddleware(metrics: metrics),
            ErrorRenderingMiddleware(log: log),
            PathDecodingMiddleware(),
            RoutingMiddleware(routes: Self.table),
            AccessControlMiddleware(access: access),
            RequestLimitsMiddleware(),
        ]
    }

    /// Counts a connection the transport refused at once for `cap` (`server`, the connections
    /// open at once; `address`, those of one client address), and logs it, at most one line a
    /// minute for each cap.
    public func recordConnectionRefusal(cap: String, client: String) {
        metrics.recordConnectionRefusal(cap: cap)
        let reason = cap == "address"
            ? "the address \(client) holds as many connections as one address may (--max-connections-per-address; "
                + "off behind a proxy, whose connections all come from its address)"
            : "the server holds as many connections as it may (--max-connections)"
        refusals.log("a connection was refused at once with 503: \(reason)", kind: "connection \(cap)")
    }

    /// Writes a log line to standard error, its line breaks written `\n` so it stays one line.
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("storerules serve: \(line.asLogLine)\n".utf8))
    }

    /// The response to `request`. Never throws and never traps, whatever the request holds.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var context = HTTPRequestContext(requestID: RequestIDMiddleware.id(from: request.header("X-Request-Id")))
        do {
            return try respond(to: request, context: &context, from: 0)
        } catch {
            // The error renderer below the id and the metrics catches every refusal.
            return .error(error.status, kind: error.kind, message: error.message)
        }
    }

    private func respond(to request: HTTPRequest, context: inout HTTPRequestContext, from index: Int) throws(HTTPError) -> HTTPResponse {
        guard index < middleware.count else { return try runRoute(request, context: context) }
        return try middleware[index].respond(to: request, context: &context) { request, context throws(HTTPError) in
            try self.respond(to: request, context: &context, from: index + 1)
        }
    }

    private func runRoute(_ request: HTTPRequest, context: HTTPRequestContext) throws(HTTPError) -> HTTPResponse {
        guard let route = context.route else { throw HTTPError(404, kind: "not_found", message: "no route \(request.path)") }
        do {
            return try route.handle(self, request, context)
        } catch {
            throw HTTPError(error)
        }
    }

    /// The id of a request that sent `header` as its `X-Request-Id`: the header when it is a
    /// short printable token, else a new one. Transports use it for the answers they make themselves.
    public static func requestID(fromHeader header: String?) -> String {
        RequestIDMiddleware.id(from: header)
    }

    /// The methods counted by name; any other counts as `other`, so a client inventing method
    /// names cannot grow the metrics without bound.
    static let countedMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    /// The label `method` is counted under in the metrics.
    public static func methodLabel(_ method: String) -> String {
        countedMethods.contains(method) ? method : "other"
    }
}
