/// Writes every ``HTTPError`` of the chain below as the JSON body `{"error": {"kind",
/// "message"}}` with its headers, and logs its detail with the request id.
struct ErrorRenderingMiddleware: HTTPMiddleware {
    /// Where log lines go.
    let log: @Sendable (String) -> Void

    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse {
        do {
            return try next(request, &context)
        } catch {
            if let detail = error.logDetail {
                log("request \(context.requestID) (\(HTTPRouter.methodLabel(request.method)) \(context.routeLabel)): \(detail)")
            }
            var response = HTTPResponse.error(error.status, kind: error.kind, message: error.message)
            response.headers.merge(error.headers) { _, given in given }
            return response
        }
    }
}
