import StoreService

/// Reads a `Transfer-Encoding: chunked` body as its bytes arrive, strictly: each chunk's size in
/// hex (1 to 15 digits, extensions after `;` skipped), its data followed by CRLF, the last chunk
/// `0`, then trailer lines up to an empty one. A body over the limit is `413`; anything else
/// malformed is `400`.
public struct ChunkedBodyDecoder: Sendable {
    private enum State: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers
        case done
    }

    /// The longest size or trailer line taken.
    static let maximumLineBytes = 4096

    /// The body decoded so far.
    public private(set) var body: [UInt8] = []
    /// The most bytes the body may have.
    public let maximumBytes: Int
    private var state = State.size
    private var line: [UInt8] = []
    private var trailerBytes = 0

    /// A decoder for a body of at most `maximumBytes`.
    public init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Whether the last chunk and the trailers have been read.
    public var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Reads `bytes`; returns how many belonged to the body (after the last, the rest are the
    /// next request's).
    public mutating func feed(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch state {
            case .done:
                return index - bytes.startIndex
            case .data(let remaining):
                let count = min(remaining, bytes.endIndex - index)
                guard body.count + count <= maximumBytes else {
                    throw HTTPError(413, kind: "too_large", message: "the body is over \(maximumBytes) bytes")
                }
                body += bytes[index..<(index + count)]
                index += count
                state = remaining == count ? .dataEnd : .data(remaining: remaining - count)
            case .size, .dataEnd, .trailers:
                let byte = bytes[index]
                index += 1
                guard byte == UInt8(ascii: "\n") else {
                    line.append(byte)
                    guard line.count <= Self.maximumLineBytes else { throw Self.malformed("a chunk's line is over 4 KiB") }
                    continue
                }
                guard line.last == UInt8(ascii: "\r") else { throw Self.malformed("a chunk's line ends in a bare LF") }
                line.removeLast()
                try endLine()
                line.removeAll(keepingCapacity: true)
            }
        }
        if case .done = state { return index - bytes.startIndex }
        return bytes.count
    }

    private mutating func endLine() throws(HTTPError) {
        switch state {
        case .size:
            let sizeText = line.prefix { $0 != UInt8(ascii: ";") }
            guard (1...15).contains(sizeText.count), let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16),
                  sizeText.allSatisfy({ $0.isHexDigitByte })
            else { throw Self.malformed("a chunk's size must be 1 to 15 hex digits") }
            guard !line.contains(UInt8(ascii: "\r")) else { throw Self.malformed("a chunk's size line holds a bare CR") }
            state = size == 0 ? .trailers : .data(remaining: size)
        case .dataEnd:
            guard line.isEmpty else { throw Self.malformed("a chunk's data is not followed by CRLF") }
            state = .size
        case .trailers:
            if line.isEmpty {
                state = .done
            } else {
                trailerBytes += line.count
                guard trailerBytes <= Self.maximumLineBytes, line.contains(UInt8(ascii: ":")) else {
                    throw Self.malformed("the body's trailers are malformed or over 4 KiB")
                }
            }
        case .data, .done:
            break
        }
    }

    private static func malformed(_ message: String) -> HTTPError {
        HTTPError(400, kind: "bad_request", message: message)
    }
}

extension UInt8 {
    /// Whether the byte is an ASCII hex digit.
    fileprivate var isHexDigitByte: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
