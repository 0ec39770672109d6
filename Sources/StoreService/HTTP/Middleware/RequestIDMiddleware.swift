import Foundation

/// Gives each request its id: the client's `X-Request-Id` when it is a short printable token
/// (1 to 128 of the characters `A–Z a–z 0–9 - _ . : / + =`), else a new UUID, so a header that
/// could forge a log line is replaced, never echoed. The id goes back in the response's
/// `X-Request-Id`.
struct RequestIDMiddleware: HTTPMiddleware {
    /// The longest id taken from a client.
    static let maximumLength = 128

    func respond(to request: HTTPRequest, context: inout HTTPRequestContext, next: HTTPResponder) throws(HTTPError) -> HTTPResponse {
        var response = try next(request, &context)
        response.headers["X-Request-Id"] = context.requestID
        return response
    }

    /// The id of a request that sent `header` as its `X-Request-Id`.
    static func id(from header: String?) -> String {
        if let header, isUsable(header) { return header }
        return UUID().uuidString.lowercased()
    }

    static func isUsable(_ id: String) -> Bool {
        (1...maximumLength).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"),
                 UInt8(ascii: "+"), UInt8(ascii: "="):
                true
            default:
                false
            }
        }
    }
}
