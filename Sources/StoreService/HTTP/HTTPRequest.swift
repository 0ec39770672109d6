import Foundation

/// An HTTP request as a transport hands it to ``HTTPRouter``: the method, the path and the
/// query arguments as the client wrote them (percent escapes not decoded: the router decodes
/// them strictly), the headers and the whole body.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …, as the client sent it.
    public var method: String
    /// The path, without the query, percent escapes as sent: `/v1/customers/ana%20b`.
    public var path: String
    /// The query arguments, by name, percent escapes as sent; an argument given without a
    /// value is the empty string.
    public var query: [String: String]
    /// The headers, by lowercased name.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Describes a request; header names are matched without regard to case.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The header named `name`, in any case.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
