import StoreService

/// What a connection needs of the server it belongs to: the router, the limits, whether the
/// server is stopping, and a route to run.
protocol ConnectionHost: AnyObject, Sendable {
    /// The router answering every request.
    var router: HTTPRouter { get }
    /// The limits and deadlines.
    var configuration: HTTPServerConfiguration { get }
    /// Whether the server is stopping: answers then close their connection.
    var isStopping: Bool { get }
    /// The router's answer to `request`.
    func answer(_ request: HTTPRequest) -> HTTPResponse
}

extension HTTPServer: ConnectionHost {}
