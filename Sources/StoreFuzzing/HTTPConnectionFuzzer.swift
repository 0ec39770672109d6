import Foundation
import StoreHTTP
import StoreService

/// The transport's reading of requests: the input is what a client sends on one connection,
/// byte for byte (request lines, headers, bodies plain or chunked, several pipelined), read
/// strictly and answered by the HTTP API's router over a real ledger and policy, as
/// ``HTTPRequestFuzzer`` makes it. Every answer must be a whole HTTP response.
final class HTTPConnectionFuzzer {
    private let requests: HTTPRequestFuzzer

    init(packageRoot: URL) throws {
        requests = try HTTPRequestFuzzer(packageRoot: packageRoot)
    }

    /// Serves the input as one connection.
    func serve(_ input: Data) {
        let answers = ReplayedConnection.answers(to: [UInt8](input), handler: requests.router)
        precondition(answers.isEmpty || answers.starts(with: Array("HTTP/1.1 ".utf8)), "an answer that is not HTTP")
    }

    /// Requests as clients send them, good and bad.
    static let seeds: [Data] = [
        "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET /v1/customers/ada/storefront?placement=home HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(HTTPRequestFuzzer.appKey)\r\n"
            + "X-Request-Id: r-1\r\n\r\nGET /readyz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
        "POST /v1/customers/ada/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(HTTPRequestFuzzer.appKey)\r\n"
            + "Content-Length: 25\r\n\r\n{\"name\": \"paywall_shown\"}",
        "POST /v1/customers/ada/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(HTTPRequestFuzzer.appKey)\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n19\r\n{\"name\": \"paywall_shown\"}\r\n0\r\n\r\n",
        "POST /v1/notifications HTTP/1.0\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n{}",
        "HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET /healthz HTTP/1.1\nHost: t\n\n",
        "\r\n\r\nGET /%00 HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
    ].map { Data($0.utf8) }
}
