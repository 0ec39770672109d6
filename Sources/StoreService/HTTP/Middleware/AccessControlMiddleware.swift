/// Checks the caller's key for the matched route's role: `401` with `WWW-Authenticate: Bearer`
/// without a known key, `403` for a key of another role. Routes without a role pass.
///
/// A route a browser signs in to (``HTTPRoute/acceptsBrowserSignIn``) also takes the key as
/// HTTP Basic credentials and challenges with `Basic`, when the request comes privately
/// (through TLS or over loopback); otherwise it takes only `Bearer`, so a browser never sends
/// the key in clear.
struct AccessControlMiddleware: HTTPMiddleware {
    let access: AccessControl

    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse {
        guard let route = context.route, let role = route.role else { return try next(request, &context) }
        let offersBrowserSignIn = route.acceptsBrowserSignIn && request.comesPrivately
        switch access.verdict(authorization: request.header("Authorization"), for: role, acceptingBasic: offersBrowserSignIn) {
        case .allowed:
            return try next(request, &context)
        case .unauthenticated where offersBrowserSignIn:
            throw HTTPError(401, kind: "unauthenticated",
                            message: "\(route.pattern) needs the \(role.rawValue) key: sign in with any user name and the key as the password, "
                                + "or send Authorization: Bearer KEY",
                            headers: ["WWW-Authenticate": BrowserSignIn.challenge])
        case .unauthenticated where route.acceptsBrowserSignIn:
            throw HTTPError(401, kind: "unauthenticated",
                            message: "\(route.pattern) needs an API key of role \(role.rawValue): Authorization: Bearer KEY; a browser signs in "
                                + "only over TLS or from this machine, where the key does not travel in clear",
                            headers: ["WWW-Authenticate": "Bearer"])
        case .unauthenticated:
            throw HTTPError(401, kind: "unauthenticated",
                            message: "\(route.pattern) needs an API key of role \(role.rawValue): Authorization: Bearer KEY",
                            headers: ["WWW-Authenticate": "Bearer"])
        case .forbidden(let held):
            throw HTTPError(403, kind: "forbidden", message: "\(route.pattern) needs role \(role.rawValue); this key has role \(held.rawValue)")
        }
    }
}
