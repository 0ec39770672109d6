import Foundation
import StoreCore
import StoreHTTP
import StoreService

/// The HTTP API's router over the Backyard Birds policy and a ledger in a temporary folder,
/// with an `app` and an `admin` key, trusting a signing authority made for the run.
///
/// An input is a request as the transport hands it over: a first line `METHOD PATH[?QUERY]`,
/// header lines `Name: value` up to an empty line, then the body. The bytes are cut up with no
/// checks of their own (the transport's parser has made them a request); every `Content-Length`
/// and `Transfer-Encoding` line goes through ``StoreHTTP/RequestFraming`` as the transport's
/// do, and the router, with its strict percent-decoding, must answer whatever comes.
final class HTTPRequestFuzzer {
    static let appKey = "fuzz-app-key-0123456789"
    static let adminKey = "fuzz-admin-key-0123456789"

    private let signedData: SignedDataFuzzer
    let router: HTTPRouter

    init(packageRoot: URL) throws {
        signedData = try SignedDataFuzzer()
        let service = try ServiceRequestFuzzer.service(packageRoot: packageRoot, trusting: signedData)
        let keyring = try APIKeyring(text: "app \(Self.appKey)\nadmin \(Self.adminKey)\n")
        router = HTTPRouter(service: service, access: AccessControl(keyring: keyring))
    }

    /// Answers the input as one request.
    func answer(_ input: Data) {
        let request = Self.request(from: input)
        let framing = RequestFraming(contentLengths: Self.headerValues("Content-Length", in: input),
                                     transferEncodings: Self.headerValues("Transfer-Encoding", in: input))
        guard framing.refusal == nil else { return }
        _ = router.respond(to: request)
    }

    /// Every value of the header `name` the input's head gives, repeated ones included.
    static func headerValues(_ name: String, in input: Data) -> [String] {
        let head = String(decoding: input.prefix { $0 != 0 }, as: UTF8.self).components(separatedBy: "\n\n").first ?? ""
        return head.split(separator: "\n").dropFirst().compactMap { line in
            let nameValue = line.split(separator: ":", maxSplits: 1)
            guard nameValue.count == 2, nameValue[0].lowercased() == name.lowercased() else { return nil }
            return String(nameValue[1])
        }
    }

    /// The request the input describes.
    static func request(from input: Data) -> HTTPRequest {
        let bytes = [UInt8](input)
        let separator: [UInt8] = [0x0A, 0x0A]
        let split = (0..<max(0, bytes.count - 1)).first { bytes[$0] == separator[0] && bytes[$0 + 1] == separator[1] }
        let head = String(decoding: bytes[..<(split ?? bytes.count)], as: UTF8.self)
        let body = split.map { Data(bytes[($0 + 2)...]) } ?? Data()
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.isEmpty ? "" : lines.removeFirst()
        let parts = first.split(separator: " ", maxSplits: 1).map(String.init)
        let target = parts.count > 1 ? parts[1] : "/"
        let pathAndQuery = target.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        if pathAndQuery.count > 1 {
            for pair in pathAndQuery[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                query[keyValue[0]] = keyValue.count > 1 ? keyValue[1] : ""
            }
        }
        var headers: [String: String] = [:]
        for line in lines {
            let nameValue = line.split(separator: ":", maxSplits: 1).map(String.init)
            guard nameValue.count == 2 else { continue }
            headers[nameValue[0]] = nameValue[1].trimmingCharacters(in: .whitespaces)
        }
        return HTTPRequest(method: parts.first ?? "", path: pathAndQuery.first ?? "/", query: query, headers: headers, body: body)
    }

    /// One request of each route, the ingests carrying payloads the run's authority signed.
    func requestSeeds() throws -> [Data] {
        let signed = try signedData.signedSeeds().map { String(decoding: $0, as: UTF8.self) }
        let app = "Authorization: Bearer \(Self.appKey)"
        let admin = "Authorization: Bearer \(Self.adminKey)"
        return [
            "POST /v1/notifications\n\n{\"signedPayload\": \"\(signed[3])\"}",
            "POST /v1/transactions\n\(app)\n\n{\"customer\": \"ada\", \"signed_transaction\": \"\(signed[0])\"}",
            "PUT /v1/customers/ada\n\(app)\n\n{\"app_account_token\": \"7E3FB20B-4CDB-47CC-936D-99D65F608138\"}",
            "GET /v1/customers/ada\n\(app)\n\n",
            "GET /v1/customers/ada/storefront?placement=home\n\(app)\n\n",
            "POST /v1/customers/ada/events\n\(app)\n\n{\"name\": \"paywall_shown\", \"placement\": \"home\"}",
            "POST /v1/decisions/show_merchandising?trace=1\n\(app)\n\n{\"ctx\": {\"customer\": {\"status_known\": true}}, \"args\": [\"home\"]}",
            "POST /v1/decisions/features\n\(app)\n\n{\"customer\": \"ada\"}",
            "GET /v1/admin/policy\n\(admin)\n\n",
            "POST /v1/admin/retry-unfinished\n\(admin)\n\n",
            "GET /metrics\n\(admin)\n\n",
            "GET /v1/admin/metrics/subscriptions?from=2026-01-01&interval=week&by=storefront&customer=ada&as_of=2026-03-01\n\(admin)\n\n",
            "GET /v1/admin/experiments/sampler_hero?horizon=7&as_of=2026-03-01T00:00:00Z\n\(admin)\n\n",
            "GET /admin\nAuthorization: Basic \(Data(":\(Self.adminKey)".utf8).base64EncodedString())\n\n",
            "GET /openapi.json\n\n",
            "GET /readyz\n\n",
            "GET /v1/customers/carol%00attacker\n\(app)\n\n",
            "GET /v1/customers/ana%20b%C3%A9/storefront?placement=h%6Fme\n\(app)\n\n",
            "POST /v1/customers/ada/events\n\(app)\nContent-Length: 5\nContent-Length: 6\n\n{}",
            "POST /v1/customers/ada/events\n\(app)\nTransfer-Encoding: gzip, chunked\n\n{}",
        ].map { Data($0.utf8) }
    }
}
