/// Checks the caller's key for the matched route's role: `401` with `WWW-Authenticate: Bearer`
/// without a known key, `403` for a key of another role. Routes without a role pass.
struct AccessControlMiddleware: HTTPMiddleware {
    let access: AccessControl

    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse {
        guard let route = context.route, let role = route.role else { return try next(request, &context) }
        switch access.verdict(authorization: request.header("Authorization"), for: role) {
        case .allowed:
            return try next(request, &context)
        case .unauthenticated:
            throw HTTPError(401, kind: "unauthenticated",
                            message: "\(route.pattern) needs an API key of role \(role.rawValue): Authorization: Bearer KEY",
                            headers: ["WWW-Authenticate": "Bearer"])
        case .forbidden(let held):
            throw HTTPError(403, kind: "forbidden", message: "\(route.pattern) needs role \(role.rawValue); this key has role \(held.rawValue)")
        }
    }
}
