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
    /// The address of the client the request came from, when the transport knows it
    /// (`127.0.0.1`, `::1`, `203.0.113.9`); nil for a request made in the process.
    public var clientAddress: String?
    /// Whether the request came through TLS.
    public var isEncrypted: Bool

    /// Describes a request; header names are matched without regard to case.
    ///
    /// Without `queryItems`, the items are `query`'s, by name.
    public init(method: String, path: String, query: [String: String] = [:], queryItems: [QueryItem]? = nil,
                headers: [String: String] = [:], body: Data = Data(), clientAddress: String? = nil, isEncrypted: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.queryItems = queryItems ?? query.sorted { $0.key < $1.key }.map { QueryItem(name: $0.key, value: $0.value) }
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
        self.clientAddress = clientAddress
        self.isEncrypted = isEncrypted
    }

    /// Whether nobody between the client and the service can read the request: it came through
    /// TLS, or from this machine over loopback.
    public var comesPrivately: Bool {
        if isEncrypted { return true }
        guard let clientAddress else { return false }
        return clientAddress.hasPrefix("127.") || clientAddress == "::1" || clientAddress.hasPrefix("::ffff:127.")
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
