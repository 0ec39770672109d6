import Foundation

/// One request to the App Store Server API as it travels: the method, the path (each segment
/// percent-encoded), the query's items in order (a name may repeat) and the JSON body.
public struct AppStoreServerAPIRequest: Sendable, Equatable {
    /// `GET`, `POST` or `PUT`.
    public var method: String
    /// The path, from `/inApps/…`, its segments percent-encoded.
    public var path: String
    /// The query's items in order, not encoded.
    public var queryItems: [QueryItem]
    /// The JSON body, when the endpoint takes one.
    public var body: Data?

    /// One `name=value` of a query.
    public struct QueryItem: Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String

        /// An item.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Describes a request.
    public init(method: String, path: String, queryItems: [QueryItem] = [], body: Data? = nil) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.body = body
    }

    /// The path and query as a request target: `/inApps/v2/history/1?productId=a&productId=b`.
    public var target: String {
        guard !queryItems.isEmpty else { return path }
        return path + "?" + queryItems.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&")
    }

    /// `text` with every byte outside RFC 3986's unreserved set percent-encoded.
    public static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }
}
