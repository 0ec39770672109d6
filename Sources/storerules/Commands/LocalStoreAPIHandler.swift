import AppStoreServerAPI
import Foundation
import StoreHTTP
import StoreService
import StoreTesting

/// The local store's App Store Server API behind the HTTP transport: each request handed to
/// ``StoreTesting/LocalStoreAPI`` with its query items as sent, and the transport's own
/// refusals written as Apple's error bodies.
struct LocalStoreAPIHandler: HTTPHandler {
    let api: LocalStoreAPI

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let apiRequest = AppStoreServerAPIRequest(
            method: request.method, path: request.path,
            queryItems: request.queryItems.map { AppStoreServerAPIRequest.QueryItem($0.name, $0.value) },
            body: request.body.isEmpty ? nil : request.body)
        let answer = api.respond(to: apiRequest, authorization: request.header("Authorization"))
        return HTTPResponse(status: answer.status, headers: Self.headers(answer.headers), body: answer.body)
    }

    func refusal(status: Int, kind: String, message: String) -> HTTPResponse {
        let code = status >= 500 ? APIErrorCode.Known.generalInternalRetryable : .generalBadRequest
        let body = (try? JSONEncoder().encode(ErrorResponse(errorCode: code.rawValue, errorMessage: message))) ?? Data()
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    func recordRefusal(method: String?, status: Int) {}

    /// Header names as the API writes them (`Content-Type`), from the lowercased names it keeps.
    private static func headers(_ headers: [String: String]) -> [String: String] {
        Dictionary(headers.map { name, value in
            (name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-"), value)
        }, uniquingKeysWith: { first, _ in first })
    }
}
