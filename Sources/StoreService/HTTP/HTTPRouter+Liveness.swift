extension HTTPRouter {
    /// Whether `request` is the liveness probe, `GET /healthz` (or `HEAD`): the router answers it
    /// from memory alone, so a transport answers it at once on the connection's thread, without
    /// waiting for a route slot that requests waiting on the ledger may all hold.
    public static func isLivenessProbe(_ request: HTTPRequest) -> Bool {
        request.path == "/healthz" && (request.method == "GET" || request.method == "HEAD")
    }
}
