import StoreService

/// What a connection needs of the server it belongs to: the handler, the limits, whether the
/// server is stopping, and a route to run.
protocol ConnectionHost: AnyObject, Sendable {
    /// What answers every request.
    var handler: any HTTPHandler { get }
    /// The limits and deadlines.
    var configuration: HTTPServerConfiguration { get }
    /// Whether the server is stopping: answers then close their connection.
    var isStopping: Bool { get }
    /// The handler's answer to `request`.
    func answer(_ request: HTTPRequest) -> HTTPResponse
}

extension HTTPServer: ConnectionHost {}
