import StoreCore

/// Decodes the path's segments and the query's names and values strictly (``StoreCore/PercentDecoding``),
/// so that nothing below sees an escape, and refuses with `400` what cannot be decoded and a
/// path with an empty segment (`//`, or a `/` at its end), which would otherwise route as
/// another path: `/v1/customers//storefront` is not the customer `storefront`.
struct PathDecodingMiddleware: HTTPMiddleware {
    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse {
        var decoded = request
        // The segments after the leading '/', read once for the empty-segment check and the decoding.
        let segments = request.path == "/" ? [] : request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments.contains(where: \.isEmpty) {
            throw HTTPError(400, kind: "bad_request", message: "the path \(request.path) has an empty segment ('//' or a '/' at its end)")
        }
        do throws(PercentDecoding.Failure) {
            decoded.path = "/" + (try segments.map { segment throws(PercentDecoding.Failure) in
                try PercentDecoding.decode(segment, allowsSlash: false)
            }).joined(separator: "/")
            decoded.query = [:]
            for (name, value) in request.query {
                decoded.query[try PercentDecoding.decode(name[...], allowsSlash: true)] = try PercentDecoding.decode(value[...], allowsSlash: true)
            }
        } catch {
            throw HTTPError(400, kind: "bad_request", message: error.description)
        }
        return try next(decoded, &context)
    }
}
