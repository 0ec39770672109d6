/// One route: a method, a path pattern, the role it needs, and its handler.
struct HTTPRoute: Sendable {
    /// A piece of a path pattern.
    enum Segment: Sendable, Equatable {
        /// This exact text.
        case literal(String)
        /// Any non-empty text, handed to the handler.
        case parameter
    }

    /// What a handler gets: the request and its context, with the path's parameters in order.
    typealias Handler = @Sendable (HTTPRouter, HTTPRequest, HTTPRequestContext) throws(ServiceError) -> HTTPResponse

    /// The method.
    let method: String
    /// The pattern, as written: `/v1/customers/{id}`; also the `route` label of its metrics.
    let pattern: String
    /// The pattern's segments.
    let segments: [Segment]
    /// The role a caller needs, or nil for a route anyone may call.
    let role: ServiceRole?
    /// The query arguments the route reads; any other is refused.
    let queryArguments: Set<String>
    /// Whether the route reads a body; one that does not refuses a body that is not blank.
    let takesBody: Bool
    /// Whether a browser may sign in to the route with its own prompt (``BrowserSignIn``),
    /// besides `Bearer`: the operator page's routes.
    let acceptsBrowserSignIn: Bool
    /// Answers the request.
    let handle: Handler

    init(_ method: String, _ pattern: String, role: ServiceRole?, query: Set<String> = [], takesBody: Bool = true,
         acceptsBrowserSignIn: Bool = false, handle: @escaping Handler) {
        self.method = method
        self.pattern = pattern
        segments = Self.segments(of: pattern).map { $0.hasPrefix("{") && $0.hasSuffix("}") ? .parameter : .literal($0) }
        self.role = role
        queryArguments = query
        self.takesBody = takesBody
        self.acceptsBrowserSignIn = acceptsBrowserSignIn
        self.handle = handle
    }

    /// The parameters a path's segments (``segments(of:)``) give this route's pattern, or nil
    /// when they do not match.
    func parameters(of parts: [String]) -> [String]? {
        guard parts.count == segments.count else { return nil }
        var parameters: [String] = []
        for (part, segment) in zip(parts, segments) {
            switch segment {
            case .literal(let text): guard part == text else { return nil }
            case .parameter: parameters.append(part)
            }
        }
        return parameters
    }

    /// The non-empty segments of a path, as patterns and paths are matched by.
    static func segments(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
