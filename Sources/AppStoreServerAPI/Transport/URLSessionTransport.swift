import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The App Store Server API over `URLSession` (on Linux, FoundationNetworking over libcurl):
/// HTTPS with the system's certificate verification, connections kept and reused between
/// requests, and a timeout on every request.
public final class URLSessionTransport: AppStoreServerAPITransport {
    /// The session, one per transport, so its connections are reused.
    private let session: URLSession
    /// How long one request may take, from sending to the last byte of its answer.
    public let timeout: TimeInterval

    /// A transport whose requests time out after `timeout` seconds.
    public init(timeout: TimeInterval = 30) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpMaximumConnectionsPerHost = 4
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends the request and waits for its whole answer.
    public func send(_ request: AppStoreServerAPIRequest, to baseURL: URL, headers: [String: String]) async throws(AppStoreServerAPIError)
        -> AppStoreServerAPIResponse {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: base + request.target) else {
            throw .invalidArgument("\(base + request.target) is not a URL")
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if let body = request.body {
            urlRequest.httpBody = body
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw .transport("\(request.method) \(Self.printable(url)): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw .transport("\(request.method) \(Self.printable(url)): the answer is not HTTP")
        }
        var answerHeaders: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { answerHeaders[name.lowercased()] = value }
        }
        return AppStoreServerAPIResponse(status: http.statusCode, headers: answerHeaders, body: data)
    }

    /// `url` as it may be printed: a password it carries written `***`.
    static func printable(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil else {
            return url.absoluteString
        }
        components.password = "***"
        return components.string ?? url.absoluteString
    }
}
