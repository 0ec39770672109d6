/// Counts every request, errors included, by the route it matched, its method and its status,
/// with its duration.
struct MetricsMiddleware: HTTPMiddleware {
    let metrics: ServiceMetrics

    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse {
        let started = ContinuousClock.now
        let response = try next(request, &context)
        metrics.recordRequest(route: context.routeLabel, method: HTTPRouter.methodLabel(request.method), status: response.status,
                              seconds: (ContinuousClock.now - started).seconds)
        return response
    }
}
