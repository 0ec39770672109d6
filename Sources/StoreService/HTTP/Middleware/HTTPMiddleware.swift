/// One concern of answering an HTTP request — its id, its metrics, its error body, its path,
/// its caller's key, its limits — wrapped around the rest of the chain.
///
/// ``HTTPRouter`` composes the chain in one place; each middleware hands the request on with
/// `next`, answers it itself, or refuses it by throwing an ``HTTPError``, which
/// ``ErrorRenderingMiddleware`` writes as the JSON error body.
public protocol HTTPMiddleware: Sendable {
    /// The response to `request`, from `next` or from this middleware.
    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse
}

/// The rest of a middleware chain.
public typealias HTTPResponder = (HTTPRequest, inout HTTPRequestContext) throws(HTTPError) -> HTTPResponse
