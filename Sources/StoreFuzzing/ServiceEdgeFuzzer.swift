import Foundation
import StoreCore
import StoreHTTP
import StoreService

/// The parsers at the service's edge that take bytes from outside before any route runs: a
/// request's line and headers (``StoreHTTP/HTTPRequestHead``), its body framing
/// (``StoreHTTP/RequestFraming``) and chunked body (``StoreHTTP/ChunkedBodyDecoder``), a
/// keys file (``StoreService/APIKeyring``), a customer id (``StoreCore/CustomerID``) and an app
/// account token (``StoreCore/AppAccountToken``).
///
/// An input is read as a request head and as a chunked body, then as the text of a keys file,
/// also line by line as ids and tokens, and as the `Content-Length` and `Transfer-Encoding`
/// values of one request (lines starting `L` and `T`).
enum ServiceEdgeFuzzer {
    /// Runs every edge parser over the input.
    static func parse(_ input: Data) {
        let bytes = [UInt8](input)
        if let head = try? HTTPRequestHead.parse(bytes[...]) {
            _ = (head.keepsAlive, head.request(body: []).path)
        }
        var chunked = ChunkedBodyDecoder(maximumBytes: 4096)
        _ = try? chunked.feed(bytes[...])
        let text = String(decoding: input, as: UTF8.self)
        if let keyring = try? APIKeyring(text: text) {
            _ = keyring.summary
            _ = keyring.role(of: text)
        }
        var lengths: [String] = []
        var codings: [String] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            _ = CustomerID.problem(with: String(line))
            _ = AppAccountToken.canonical(String(line))
            switch line.first {
            case "L": lengths.append(String(line.dropFirst()))
            case "T": codings.append(String(line.dropFirst()))
            default: break
            }
        }
        let framing = RequestFraming(contentLengths: lengths, transferEncodings: codings)
        _ = (framing.contentLength, framing.refusal?.status)
    }

    /// Keys files, ids, tokens and framings as operators and clients write them, good and bad.
    static let seeds: [Data] = [
        "# keys\napp app-key-0123456789abcdef\r\nadmin admin-key-0123456789abc\n",
        "\n# only comments\n",
        "apps short\n",
        "carol\u{0}attacker\nF1A4F0F3-5C2B-4B6E-9D1A-0C8E2F4A6B7D\nL5\nL6\n",
        "L 42 \nTchunked\n",
        "Tgzip, chunked\nTchunked\n",
        "L-1\n",
        "GET /v1/customers/ana%20b?placement=home&trace HTTP/1.1\r\nHost: t\r\nX-Request-Id: r-1\r\n",
        "POST /v1/notifications HTTP/1.0\r\nContent-Length: 5\r\nConnection: keep-alive\r\n",
        "5;ext=1\r\nhello\r\n0\r\nTrailer: x\r\n\r\n",
        String(repeating: "é", count: 80),
    ].map { Data($0.utf8) }
}
