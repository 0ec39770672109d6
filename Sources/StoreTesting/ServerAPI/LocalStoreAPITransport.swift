import AppStoreServerAPI
import Foundation

/// The local store's App Store Server API called in process, for a client that needs no wire:
/// each request's query written as it travels on the wire, then answered by ``LocalStoreAPI``
/// with the client's `Authorization`.
public struct LocalStoreAPITransport: AppStoreServerAPITransport {
    /// The API answering.
    public let api: LocalStoreAPI

    /// A transport to `api`.
    public init(api: LocalStoreAPI) {
        self.api = api
    }

    /// `api`'s answer to `request`; the base URL is not used.
    public func send(_ request: AppStoreServerAPIRequest, to baseURL: URL, headers: [String: String]) async throws(AppStoreServerAPIError)
        -> AppStoreServerAPIResponse {
        var sent = request
        sent.queryItems = request.queryItems.map { .init(AppStoreServerAPIRequest.encode($0.name), AppStoreServerAPIRequest.encode($0.value)) }
        return api.respond(to: sent, authorization: headers["Authorization"])
    }
}
