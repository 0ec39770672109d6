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
    /// Every query argument in the order sent, a name given twice included, escapes as sent.
    public var queryItems: [QueryItem]
    /// The headers, by lowercased name.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Describes a request; header names are matched without regard to case.
    ///
    /// Without `queryItems`, the items are `query`'s, by name.
    public init(method: String, path: String, query: [String: String] = [:], queryItems: [QueryItem]? = nil,
                headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.queryItems = queryItems ?? query.sorted { $0.key < $1.key }.map { QueryItem(name: $0.key, value: $0.value) }
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The header named `name`, in any case.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// One `name=value` of a query, escapes as sent.
    public struct QueryItem: Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value; empty when the name came without one.
        public var value: String

        /// An item.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}
