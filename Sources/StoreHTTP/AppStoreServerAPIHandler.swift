import AppStoreServerAPI
import Foundation
import StoreService

/// An App Store Server API behind the HTTP transport — the local store's, in `storerules store …
/// api` and the bench: each request handed to `answer` as an ``AppStoreServerAPI/AppStoreServerAPIRequest``
/// with its query items as sent and its `Authorization`, and the transport's own refusals
/// written as Apple's error bodies.
public struct AppStoreServerAPIHandler: HTTPHandler {
    /// Answers one request, given its `Authorization` header.
    public let answer: @Sendable (AppStoreServerAPIRequest, String?) -> AppStoreServerAPIResponse

    /// A handler answering with `answer`.
    public init(answer: @escaping @Sendable (AppStoreServerAPIRequest, String?) -> AppStoreServerAPIResponse) {
        self.answer = answer
    }

    /// `answer`'s response, its header names as the API writes them.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let apiRequest = AppStoreServerAPIRequest(
            method: request.method, path: request.path,
            queryItems: request.queryItems.map { AppStoreServerAPIRequest.QueryItem($0.name, $0.value) },
            body: request.body.isEmpty ? nil : request.body)
        let answer = answer(apiRequest, request.header("Authorization"))
        return HTTPResponse(status: answer.status, headers: Self.headers(answer.headers), body: answer.body)
    }

    /// Apple's error body: `5000001` for an overloaded server, `4000000` otherwise.
    public func refusal(status: Int, kind: String, message: String) -> HTTPResponse {
        let code = status >= 500 ? APIErrorCode.Known.generalInternalRetryable : .generalBadRequest
        let body = (try? JSONEncoder().encode(ErrorResponse(errorCode: code.rawValue, errorMessage: message))) ?? Data()
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// Counts nothing: the API keeps no metrics.
    public func recordRefusal(method: String?, status: Int) {}

    /// Header names as the API writes them (`Content-Type`), from the lowercased names it keeps.
    private static func headers(_ headers: [String: String]) -> [String: String] {
        Dictionary(headers.map { name, value in
            (name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-"), value)
        }, uniquingKeysWith: { first, _ in first })
    }
}
