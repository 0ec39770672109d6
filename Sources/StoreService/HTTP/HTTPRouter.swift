import Foundation
import StoreCore
import StorePolicy

/// StoreRules' HTTP API over a ``Service``, apart from any transport: a transport hands over
/// an ``HTTPRequest`` and sends back the ``HTTPResponse``.
///
/// The router finds the route (`404` for an unknown path, `405` with `Allow` for a known path
/// asked with another method), checks the caller's key for the route's role (`401`, `403`),
/// refuses unknown query arguments and bodies over ``maximumBodyBytes`` (`400`, `413`), runs
/// the route and counts it in ``metrics``. Every failure is a JSON body
/// `{"error": {"kind", "message"}}`. Safe to call from any number of threads.
public final class HTTPRouter: Sendable {
    /// The largest body a request may carry.
    public static let maximumBodyBytes = 64 * 1024

    /// The service the routes call.
    public let service: Service
    /// Who may call which route.
    public let access: AccessControl
    /// What the routes count.
    public let metrics: ServiceMetrics
    /// Where each decision is logged, when anywhere.
    public let decisionLog: DecisionLog?
    let routes: [HTTPRoute]

    /// A router over `service`, checking callers with `access`.
    public init(service: Service, access: AccessControl, metrics: ServiceMetrics = ServiceMetrics(), decisionLog: DecisionLog? = nil) {
        self.service = service
        self.access = access
        self.metrics = metrics
        self.decisionLog = decisionLog
        routes = Self.table
    }

    /// The response to `request`. Never throws and never traps, whatever the request holds.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = ContinuousClock.now
        let (response, label) = route(request)
        let elapsed = ContinuousClock.now - started
        metrics.recordRequest(route: label, method: Self.methodLabel(request.method), status: response.status,
                              seconds: elapsed.seconds)
        return response
    }

    /// The methods counted by name; any other counts as `other`, so a client inventing method
    /// names cannot grow the metrics without bound.
    static let countedMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    /// The label `method` is counted under in the metrics.
    public static func methodLabel(_ method: String) -> String {
        countedMethods.contains(method) ? method : "other"
    }

    /// The response, and the route label it counts under.
    private func route(_ raw: HTTPRequest) -> (HTTPResponse, String) {
        let parts: [String]
        var request = raw
        do throws(ServiceError) {
            parts = try HTTPRoute.segments(of: raw.path).map { segment throws(ServiceError) in
                try PercentDecoding.decode(segment[...], allowsSlash: false)
            }
            request.query = [:]
            for (name, value) in raw.query {
                request.query[try PercentDecoding.decode(name[...], allowsSlash: true)] =
                    try PercentDecoding.decode(value[...], allowsSlash: true)
            }
        } catch {
            return (.error(error), "unmatched")
        }
        let matching = routes.compactMap { route in route.parameters(of: parts).map { (route, $0) } }
        guard !matching.isEmpty else {
            return (.error(404, kind: "not_found", message: "no route \(request.path); see docs/service.md"), "unmatched")
        }
        // HEAD is answered as GET; the transport sends the headers without the body.
        let method = request.method == "HEAD" ? "GET" : request.method
        guard let (route, parameters) = matching.first(where: { $0.0.method == method }) else {
            let methods = matching.map(\.0.method)
            let allowed = (methods.contains("GET") ? methods + ["HEAD"] : methods).sorted().joined(separator: ", ")
            var response = HTTPResponse.error(405, kind: "method_not_allowed",
                                              message: "\(matching[0].0.pattern) takes \(allowed), not \(request.method)")
            response.headers["Allow"] = allowed
            return (response, matching[0].0.pattern)
        }
        if let role = route.role {
            switch access.verdict(authorization: request.header("Authorization"), for: role) {
            case .allowed:
                break
            case .unauthenticated:
                var response = HTTPResponse.error(401, kind: "unauthenticated",
                                                  message: "\(route.pattern) needs an API key of role \(role.rawValue): Authorization: Bearer KEY")
                response.headers["WWW-Authenticate"] = "Bearer"
                return (response, route.pattern)
            case .forbidden(let held):
                return (.error(403, kind: "forbidden", message: "\(route.pattern) needs role \(role.rawValue); this key has role \(held.rawValue)"),
                        route.pattern)
            }
        }
        if request.body.count > Self.maximumBodyBytes {
            return (.error(413, kind: "too_large", message: "the body is over \(Self.maximumBodyBytes) bytes"), route.pattern)
        }
        if let stray = request.query.keys.sorted().first(where: { !route.queryArguments.contains($0) }) {
            let hint = NearestName.nearest(to: stray, in: route.queryArguments.sorted()).map { "; did you mean '\($0)'?" }
                ?? (route.queryArguments.isEmpty ? "; it takes none" : "; it takes " + route.queryArguments.sorted().joined(separator: ", "))
            return (.error(400, kind: "bad_request", message: "\(route.pattern) has no query argument '\(stray)'\(hint)"), route.pattern)
        }
        do {
            return (try route.handle(self, request, parameters), route.pattern)
        } catch {
            return (.error(error), route.pattern)
        }
    }
}
