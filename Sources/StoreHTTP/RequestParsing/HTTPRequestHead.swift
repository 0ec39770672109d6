import Foundation
import StoreService

/// The request line and headers of one HTTP/1.0 or HTTP/1.1 request, read strictly from their
/// bytes, so that a request means one thing to StoreRules and to anything in front of it.
///
/// Refused, each with an ``StoreService/HTTPError`` whose message names the rule: a request line that is not
/// `METHOD SP /target SP HTTP/1.x` (`400`), a target over ``maximumTargetBytes`` (`414`), an HTTP
/// version other than 1.0 and 1.1 (`505`), a line not ended by CRLF, a header line without a
/// name and colon, white space before the colon, a folded line or a control character in a
/// value (`400`), more than ``maximumHeaderCount`` headers (`431`), an HTTP/1.1 request
/// without exactly one `Host`, and a request with more than one `Authorization` (`400`).
public struct HTTPRequestHead: Sendable {
    /// The longest request target taken.
    public static let maximumTargetBytes = 8 * 1024
    /// The most header lines taken.
    public static let maximumHeaderCount = 100

    /// `GET`, `POST`, … as sent.
    public var method: String
    /// The path, escapes as sent.
    public var path: String
    /// The query's arguments by name, escapes as sent (a `+` read as a space); of a name given
    /// twice, the first.
    public var query: [String: String]
    /// Every query argument in the order sent, a name given twice included.
    public var queryItems: [HTTPRequest.QueryItem]
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    /// The headers in the order sent, names as sent.
    public var headers: [(name: String, value: String)]

    /// Every value of the header `name`, in any case, in the order sent.
    public func values(of name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsAlive: Bool {
        let tokens = values(of: "Connection").flatMap { $0.lowercased().split(separator: ",") }
            .map { String($0).trimmingCharacters(in: .whitespaces) }
        return minorVersion == 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
    }

    /// The request with this head and `body`, as a handler takes it.
    public func request(body: [UInt8]) -> HTTPRequest {
        var first: [String: String] = [:]
        for (name, value) in headers where first[name.lowercased()] == nil {
            first[name.lowercased()] = value
        }
        return HTTPRequest(method: method, path: path, query: query, queryItems: queryItems, headers: first, body: Data(body))
    }

    /// Reads a head from `bytes`: everything before the empty line that ends it, without it.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> HTTPRequestHead {
        var lines = try Self.lines(of: bytes)
        guard !lines.isEmpty else { throw refusal("the request has no request line") }
        let requestLine = lines.removeFirst()
        let (method, target, minorVersion) = try Self.requestLine(requestLine)
        guard lines.count <= maximumHeaderCount else {
            throw HTTPError(431, kind: "headers_too_large", message: "the request has more than \(maximumHeaderCount) header lines")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            headers.append(try header(line))
        }
        let hosts = headers.filter { $0.name.lowercased() == "host" }.count
        if minorVersion == 1, hosts != 1 {
            throw refusal(hosts == 0 ? "an HTTP/1.1 request needs a Host header" : "the request has \(hosts) Host headers; one names the server")
        }
        if headers.filter({ $0.name.lowercased() == "authorization" }).count > 1 {
            throw refusal("the request has several Authorization headers; one carries the key")
        }
        let questionMark = target.firstIndex(of: UInt8(ascii: "?"))
        let path = String(decoding: target[..<(questionMark ?? target.endIndex)], as: UTF8.self)
        var query: [String: String] = [:]
        var queryItems: [HTTPRequest.QueryItem] = []
        if let questionMark {
            for pair in target[target.index(after: questionMark)...].split(separator: UInt8(ascii: "&")) {
                let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.formText(parts[0])
                let value = parts.count > 1 ? Self.formText(parts[1]) : ""
                queryItems.append(HTTPRequest.QueryItem(name: name, value: value))
                if query[name] == nil { query[name] = value }
            }
        }
        return HTTPRequestHead(method: method, path: path, query: query, queryItems: queryItems, minorVersion: minorVersion, headers: headers)
    }

    // MARK: - Reading

    private static func refusal(_ message: String) -> HTTPError {
        HTTPError(400, kind: "bad_request", message: message)
    }

    /// The CRLF-ended lines of a head; a bare CR or LF is refused.
    private static func lines(of bytes: ArraySlice<UInt8>) throws(HTTPError) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\r"):
                guard index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "\n") else {
                    throw refusal("a line of the request's head has a CR not followed by LF")
                }
                lines.append(bytes[start..<index])
                index += 2
                start = index
            case UInt8(ascii: "\n"):
                throw refusal("a line of the request's head ends in a bare LF; lines end in CRLF")
            default:
                index += 1
            }
        }
        if start < bytes.endIndex { lines.append(bytes[start..<bytes.endIndex]) }
        return lines
    }

    private static func requestLine(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (String, ArraySlice<UInt8>, Int) {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw refusal("the request line must be METHOD /target HTTP/1.1, with single spaces")
        }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        guard (1...32).contains(method.count), method.allSatisfy(isTokenByte) else {
            throw refusal("the request's method must be a token, such as GET or POST")
        }
        guard target.count <= maximumTargetBytes else {
            throw HTTPError(414, kind: "uri_too_long", message: "the request target is over \(maximumTargetBytes) bytes")
        }
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "#") }) else {
            throw refusal("the request target must be a path starting with '/', in visible ASCII without '#'")
        }
        let prefix = Array("HTTP/".utf8)
        guard version.count == 8, version.prefix(5).elementsEqual(prefix), isDigit(version[version.startIndex + 5]),
              version[version.startIndex + 6] == UInt8(ascii: "."), isDigit(version[version.startIndex + 7])
        else {
            throw refusal("the request line must end with the HTTP version, such as HTTP/1.1")
        }
        let major = Int(version[version.startIndex + 5] - UInt8(ascii: "0"))
        let minor = Int(version[version.startIndex + 7] - UInt8(ascii: "0"))
        guard major == 1, minor <= 1 else {
            throw HTTPError(505, kind: "http_version_not_supported", message: "HTTP/\(major).\(minor) is not served; use HTTP/1.1")
        }
        return (String(decoding: method, as: UTF8.self), target, minor)
    }

    private static func header(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (name: String, value: String) {
        if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            throw refusal("a header line is folded onto the one before; send each header on one line")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw refusal("a header line has no ':' after its name")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            throw refusal("a header's name must be a token, with no white space before its ':'")
        }
        var value = line[line.index(after: colon)...]
        while let first = value.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { value = value.dropFirst() }
        while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { value = value.dropLast() }
        guard value.allSatisfy({ $0 == UInt8(ascii: "\t") || $0 >= 0x20 && $0 != 0x7F }) else {
            throw refusal("the header \(String(decoding: name, as: UTF8.self)) holds a control character")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// A query name or value with `+` read as a space, escapes kept for the handler to decode.
    private static func formText(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
