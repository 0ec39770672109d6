import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt to send a notification as the App Store sends it, and its result in the words
/// of Apple's `sendAttemptResult`.
enum NotificationSender {
    /// The result of an attempt the server answered with `2xx`.
    static let success = "SUCCESS"
    /// How long an attempt waits for the server's answer.
    static let timeout: TimeInterval = 5

    /// `POST {"signedPayload": payload}` to `url`; the attempt's result.
    static func send(_ payload: String, to url: URL) -> String {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONEncoder().encode(["signedPayload": payload])
        let result = Mutex<String>("OTHER")
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { _, response, error in
            result.withLock { $0 = Self.result(response: response, error: error) }
            done.signal()
        }
        task.resume()
        done.wait()
        return result.withLock { $0 }
    }

    private static func result(response: URLResponse?, error: (any Error)?) -> String {
        if let error = error as? URLError {
            switch error.code {
            case .timedOut: return "TIMED_OUT"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
                 .serverCertificateHasUnknownRoot, .clientCertificateRejected:
                return "TLS_ISSUE"
            case .httpTooManyRedirects, .redirectToNonExistentLocation: return "CIRCULAR_REDIRECT"
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet: return "SOCKET_ISSUE"
            case .networkConnectionLost: return "PREMATURE_CLOSE"
            case .badServerResponse, .cannotParseResponse: return "INVALID_RESPONSE"
            case .zeroByteResource: return "NO_RESPONSE"
            default: return "OTHER"
            }
        }
        if error != nil { return "OTHER" }
        guard let http = response as? HTTPURLResponse else { return "INVALID_RESPONSE" }
        return (200..<300).contains(http.statusCode) ? success : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    }
}
