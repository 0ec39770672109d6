/// Finds the route of the request's path and method: `404` for an unknown path, `405` with
/// `Allow` for a known path asked with another method. `HEAD` is answered as `GET`.
struct RoutingMiddleware: HTTPMiddleware {
    let routes: [HTTPRoute]

    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse {
        let parts = HTTPRoute.segments(of: request.path)
        let matching = routes.compactMap { route in route.parameters(of: parts).map { (route, $0) } }
        guard let first = matching.first else {
            throw HTTPError(404, kind: "not_found", message: "no route \(request.path); see docs/service.md")
        }
        context.routeLabel = first.0.pattern
        let method = request.method == "HEAD" ? "GET" : request.method
        guard let (route, parameters) = matching.first(where: { $0.0.method == method }) else {
            let methods = matching.map(\.0.method)
            let allowed = (methods.contains("GET") ? methods + ["HEAD"] : methods).sorted().joined(separator: ", ")
            throw HTTPError(405, kind: "method_not_allowed", message: "\(first.0.pattern) takes \(allowed), not \(request.method)",
                            headers: ["Allow": allowed])
        }
        context.route = route
        context.parameters = parameters
        return try next(request, &context)
    }
}
