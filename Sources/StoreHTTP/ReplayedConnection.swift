import Foundation
import StoreService

/// A connection whose client is a fixed run of bytes: what a server reading them strictly
/// (``HTTPConnection``) writes back, with no socket. For fuzzing the transport's reading of
/// requests and for tests; the deadlines pass at once once the bytes run out.
package enum ReplayedConnection {
    /// What `handler` answers to a client that sends `bytes` and then waits.
    package static func answers(to bytes: [UInt8], handler: any HTTPHandler,
                                configuration: HTTPServerConfiguration = HTTPServerConfiguration()) -> [UInt8] {
        let stream = MemoryStream(input: bytes)
        HTTPConnection(stream: stream, server: MemoryHost(handler: handler, configuration: configuration)).serve()
        return stream.output
    }

    /// A host that runs every route at once.
    private final class MemoryHost: ConnectionHost, @unchecked Sendable {
        let handler: any HTTPHandler
        let configuration: HTTPServerConfiguration
        var isStopping: Bool { false }

        init(handler: any HTTPHandler, configuration: HTTPServerConfiguration) {
            self.handler = handler
            self.configuration = configuration
        }

        func answer(_ request: HTTPRequest) -> HTTPResponse {
            handler.respond(to: request)
        }
    }

    /// Hands out the input in pieces of at most 1,000 bytes, then reports the deadline passed.
    private final class MemoryStream: ByteStream {
        private var input: ArraySlice<UInt8>
        private(set) var output: [UInt8] = []
        let clientAddress: String? = nil
        let isEncrypted = false

        init(input: [UInt8]) {
            self.input = input[...]
        }

        func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant) throws(StreamFailure) -> Int {
            guard !input.isEmpty else { throw .timedOut }
            let count = min(buffer.count, input.count, 1000)
            buffer.copyBytes(from: input.prefix(count))
            input = input.dropFirst(count)
            return count
        }

        func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(StreamFailure) {
            output += bytes
        }

        func finishWriting() {}
    }
}
