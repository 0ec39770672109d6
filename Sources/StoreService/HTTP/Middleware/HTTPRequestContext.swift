/// What the middleware chain learns about one request as it passes through: its id, the route
/// it matched and the path's parameters.
public struct HTTPRequestContext: Sendable {
    /// The request's id: its `X-Request-Id` when usable, else one made up; in the response's
    /// `X-Request-Id`, the decision log and every log line about the request.
    public var requestID: String
    /// The route the path matched, once routing found it.
    var route: HTTPRoute?
    /// The path's parameters for ``route``, decoded, in order.
    public var parameters: [String] = []
    /// The label the request counts under in the metrics: the route's pattern, or `unmatched`.
    public var routeLabel = "unmatched"

    /// A context for a request with this id.
    public init(requestID: String) {
        self.requestID = requestID
    }
}
