/// Decodes the path's segments and the query's names and values strictly (``PercentDecoding``),
/// so that nothing below sees an escape, and refuses what cannot be decoded with `400`.
struct PathDecodingMiddleware: HTTPMiddleware {
    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse {
        var decoded = request
        do throws(ServiceError) {
            decoded.path = "/" + (try HTTPRoute.segments(of: request.path).map { segment throws(ServiceError) in
                try PercentDecoding.decode(segment[...], allowsSlash: false)
            }).joined(separator: "/")
            decoded.query = [:]
            for (name, value) in request.query {
                decoded.query[try PercentDecoding.decode(name[...], allowsSlash: true)] = try PercentDecoding.decode(value[...], allowsSlash: true)
            }
        } catch {
            throw HTTPError(error)
        }
        return try next(decoded, &context)
    }
}
