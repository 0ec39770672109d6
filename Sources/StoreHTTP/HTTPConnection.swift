import AppStoreServerAPI
import Foundation
import StoreService

/// One client connection, served on its own thread: request after request (keep-alive and
/// pipelining), each read strictly (``HTTPRequestHead``, ``RequestFraming``,
/// ``ChunkedBodyDecoder``) within its deadlines and the configuration's body cap, answered by
/// the server's handler, every refusal written as the handler writes one.
///
/// Deadlines: a request's line and headers must arrive within the header timeout of the
/// connection's opening or its previous answer (so an idle keep-alive connection closes then
/// too); a body must keep the minimum rate after the header timeout as a grace; an answer must
/// be taken within the idle timeout.
final class HTTPConnection {
    /// The most bytes a request's line and headers may take.
    static let maximumHeadBytes = 64 * 1024

    private let stream: ByteStream
    private let server: any ConnectionHost
    private var buffer: [UInt8] = []
    private var readChunk = [UInt8](repeating: 0, count: 16 * 1024)

    init(stream: ByteStream, server: any ConnectionHost) {
        self.stream = stream
        self.server = server
    }

    /// Serves requests until the client closes, a deadline passes, a refusal closes the
    /// connection, or the server stops.
    func serve() {
        do throws(StreamFailure) {
            while try serveOneRequest() {}
            stream.lingeringFinish()
        } catch {
            return
        }
    }

    /// Reads, answers and writes one request; whether the connection goes on.
    private func serveOneRequest() throws(StreamFailure) -> Bool {
        let configuration = server.configuration
        guard let headBytes = try readHead(deadline: .now + configuration.headerTimeout) else { return false }
        let head: HTTPRequestHead
        do {
            head = try HTTPRequestHead.parse(headBytes[...])
        } catch {
            try refuse(error, method: nil, requestID: nil)
            return false
        }
        let requestID = head.values(of: "X-Request-Id").first
        let framing = RequestFraming(contentLengths: head.values(of: "Content-Length"),
                                     transferEncodings: head.values(of: "Transfer-Encoding"))
        if let refusal = framing.refusal {
            try refuse(refusal, method: head.method, requestID: requestID)
            return false
        }
        let chunked = !head.values(of: "Transfer-Encoding").isEmpty
        if let length = framing.contentLength, length > configuration.maximumBodyBytes {
            try refuse(HTTPError(413, kind: "too_large", message: "the body is over \(configuration.maximumBodyBytes) bytes"), method: head.method,
                       requestID: requestID)
            return false
        }
        if let expectation = head.values(of: "Expect").first {
            guard expectation.lowercased() == "100-continue" else {
                try refuse(HTTPError(417, kind: "expectation_failed", message: "only Expect: 100-continue is understood"), method: head.method,
                           requestID: requestID)
                return false
            }
            if head.minorVersion == 1, chunked || (framing.contentLength ?? 0) > buffer.count {
                try stream.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), deadline: .now + .seconds(configuration.idleTimeoutSeconds))
            }
        }
        let body: [UInt8]
        do {
            body = chunked ? try readChunkedBody() : try readBody(length: framing.contentLength ?? 0)
        } catch let error as HTTPError {
            try refuse(error, method: head.method, requestID: requestID)
            return false
        } catch {
            throw (error as? StreamFailure) ?? .broken
        }
        var request = head.request(body: body)
        request.clientAddress = stream.clientAddress
        request.isEncrypted = stream.isEncrypted
        let response = server.answer(request)
        let keepAlive = head.keepsAlive && !server.isStopping
        try send(response, method: head.method, headOnly: head.method == "HEAD", keepAlive: keepAlive, counted: false)
        return keepAlive
    }

    // MARK: - Reading

    /// The bytes of the next request's line and headers, without the empty line that ends
    /// them; nil when the client closed between requests.
    private func readHead(deadline: ContinuousClock.Instant) throws(StreamFailure) -> [UInt8]? {
        var searchedUpTo = 0
        while true {
            // Empty lines before a request line are skipped, as RFC 9112 allows.
            while buffer.starts(with: [0x0D, 0x0A]) {
                buffer.removeFirst(2)
                searchedUpTo = 0
            }
            let end = Self.endOfHead(in: buffer, from: max(0, searchedUpTo - 3))
            if let end, end <= Self.maximumHeadBytes {
                let head = Array(buffer[..<end])
                buffer.removeFirst(end + 4)
                return head
            }
            // A bare LF ends nothing: the head as far as it goes is refused at once.
            if end == nil, let bareLF = Self.bareLineFeed(in: buffer, from: max(0, searchedUpTo - 1)) {
                return Array(buffer[...bareLF])
            }
            searchedUpTo = buffer.count
            guard end == nil, buffer.count <= Self.maximumHeadBytes else {
                let requestLineEnds = buffer.firstIndex(of: 0x0A) != nil
                try refuse(requestLineEnds
                           ? HTTPError(431, kind: "headers_too_large", message: "the request's headers are over \(Self.maximumHeadBytes / 1024) KiB")
                           : HTTPError(414, kind: "uri_too_long", message: "the request line is over \(Self.maximumHeadBytes / 1024) KiB"),
                           method: nil, requestID: nil)
                throw .broken
            }
            let count = try fill(deadline: deadline)
            if count == 0 {
                if buffer.isEmpty { return nil }
                throw .broken
            }
        }
    }

    /// A body of `length` bytes, at the minimum rate.
    private func readBody(length: Int) throws(StreamFailure) -> [UInt8] {
        let started = ContinuousClock.now
        while buffer.count < length {
            guard try fill(deadline: bodyDeadline(started: started, received: buffer.count)) > 0 else { throw .broken }
        }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return body
    }

    /// A chunked body, at the minimum rate.
    private func readChunkedBody() throws -> [UInt8] {
        var decoder = ChunkedBodyDecoder(maximumBytes: server.configuration.maximumBodyBytes)
        let started = ContinuousClock.now
        var received = 0
        while true {
            let used = try decoder.feed(buffer[...])
            received += used
            buffer.removeFirst(used)
            if decoder.isComplete { return decoder.body }
            guard try fill(deadline: bodyDeadline(started: started, received: received)) > 0 else { throw StreamFailure.broken }
        }
    }

    /// The header timeout as a grace, then one second per minimum rate's worth of bytes received.
    private func bodyDeadline(started: ContinuousClock.Instant, received: Int) -> ContinuousClock.Instant {
        let configuration = server.configuration
        let earned = Double(received) / Double(max(1, configuration.minimumBodyBytesPerSecond))
        return started + configuration.headerTimeout + .seconds(earned)
    }

    /// Reads what has arrived onto the buffer; 0 when the client closed.
    private func fill(deadline: ContinuousClock.Instant) throws(StreamFailure) -> Int {
        let result = readChunk.withUnsafeMutableBytes { chunk in
            Result { () throws(StreamFailure) -> Int in try stream.read(into: chunk, deadline: deadline) }
        }
        let count = try result.get()
        buffer += readChunk[..<count]
        return count
    }

    /// The first LF from `start` on that no CR precedes.
    private static func bareLineFeed(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x0A, index == 0 || bytes[index - 1] != 0x0D { return index }
            index += 1
        }
        return nil
    }

    private static func endOfHead(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 0x0D, bytes[index + 1] == 0x0A, bytes[index + 2] == 0x0D, bytes[index + 3] == 0x0A { return index }
            index += 1
        }
        return nil
    }

    // MARK: - Writing

    /// Answers a request the transport refused with the handler's refusal, closing the connection.
    private func refuse(_ error: HTTPError, method: String?, requestID: String?) throws(StreamFailure) {
        var response = server.handler.refusal(status: error.status, kind: error.kind, message: error.message)
        response.headers.merge(error.headers) { _, given in given }
        try send(response, method: method, headOnly: method == "HEAD", keepAlive: false, counted: true, requestID: requestID)
    }

    /// Writes `response`, with a `Date` header of the server's clock unless the handler dated it
    /// itself; `counted` answers are the transport's own, counted by the handler and marked
    /// with the id the handler gives them (from `requestID`, the request's `X-Request-Id`).
    private func send(_ response: HTTPResponse, method: String?, headOnly: Bool, keepAlive: Bool, counted: Bool,
                      requestID: String? = nil) throws(StreamFailure) {
        var response = response
        if counted {
            server.handler.recordRefusal(method: method, status: response.status)
            if let id = server.handler.refusalRequestID(header: requestID) { response.headers["X-Request-Id"] = id }
        }
        var text = "HTTP/1.1 \(response.status) \(HTTPStatusReason.phrase(response.status))\r\n"
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            text += "\(name): \(value)\r\n"
        }
        text += "Content-Length: \(response.body.count)\r\n"
        if response.headers["Date"] == nil { text += "Date: \(HTTPDateHeader.now)\r\n" }
        text += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        if !headOnly { bytes += response.body }
        try stream.write(bytes, deadline: .now + .seconds(server.configuration.idleTimeoutSeconds))
    }
}
