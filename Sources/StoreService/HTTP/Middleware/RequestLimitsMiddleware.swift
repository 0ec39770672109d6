import StorePolicy

/// Refuses a body over ``HTTPRouter/maximumBodyBytes`` (`413`), a body sent to a route that
/// reads none (`400`), and a query argument the matched route does not read (`400`, with the
/// nearest one it does).
struct RequestLimitsMiddleware: HTTPMiddleware {
    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse {
        if request.body.count > HTTPRouter.maximumBodyBytes {
            throw HTTPError(413, kind: "too_large", message: "the body is over \(HTTPRouter.maximumBodyBytes) bytes")
        }
        if let route = context.route, route.method == "POST", !route.takesBody, !RequestBodies.isBlank(request.body) {
            throw HTTPError(400, kind: "bad_request", message: "\(route.pattern) takes no body")
        }
        if let route = context.route, let stray = request.query.keys.sorted().first(where: { !route.queryArguments.contains($0) }) {
            let known = route.queryArguments.sorted()
            let hint = NearestName.nearest(to: stray, in: known).map { "; did you mean '\($0)'?" }
                ?? (known.isEmpty ? "; it takes none" : "; it takes " + known.joined(separator: ", "))
            throw HTTPError(400, kind: "bad_request", message: "\(route.pattern) has no query argument '\(stray)'\(hint)")
        }
        return try next(request, &context)
    }
}
