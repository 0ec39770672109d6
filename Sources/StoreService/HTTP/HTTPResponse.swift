import Foundation
import StoreCore

/// An HTTP response for a transport to send: a status, headers and a body.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, by name.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Describes a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `value` as a JSON body (keys sorted, slashes unescaped) with `status`.
    public static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            var body = try encoder.encode(value)
            body.append(0x0A)
            return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
        } catch {
            return .error(500, kind: "internal", message: "the answer could not be written as JSON: \(error)")
        }
    }

    /// `value` as a JSON body with `status`, written directly: the same text as
    /// ``json(_:_:)`` gives for it, faster.
    public static func json(_ status: Int, writing value: some JSONWritable) -> HTTPResponse {
        var writer = JSONTextWriter(capacity: 4096)
        writer.write(value)
        var body = Data(writer.bytes)
        body.append(0x0A)
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// The JSON error body every route answers a failure with: `{"error": {"kind", "message"}}`.
    public static func error(_ status: Int, kind: String, message: String) -> HTTPResponse {
        json(status, ErrorBody(error: ErrorBody.Detail(kind: kind, message: message)))
    }

    /// `error`'s status and body.
    public static func error(_ error: ServiceError) -> HTTPResponse {
        .error(error.httpStatus, kind: error.kind, message: error.message)
    }

    /// Plain text with `status`, of the content type `contentType`.
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
    }

    private struct ErrorBody: Encodable {
        struct Detail: Encodable {
            let kind: String
            let message: String
        }
        let error: Detail
    }
}
