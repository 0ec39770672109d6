import Foundation

/// What carries a request to the App Store Server API and its answer back.
///
/// ``URLSessionTransport`` is the one StoreRules uses; the protocol keeps the client's paging,
/// retries and verification apart from the wire.
public protocol AppStoreServerAPITransport: Sendable {
    /// Sends `request` to `baseURL` with `headers`, and returns the answer, whatever its status.
    ///
    /// - Throws: ``AppStoreServerAPIError/transport(_:)`` when no answer came.
    func send(_ request: AppStoreServerAPIRequest, to baseURL: URL, headers: [String: String]) async throws(AppStoreServerAPIError)
        -> AppStoreServerAPIResponse
}
