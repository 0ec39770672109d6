import Foundation

/// The JSON-lines protocol over standard input and output: one reader, `workers` workers and
/// one writer.
///
/// ```
/// stdin ─► reader ─► requests ─► worker 1 ┐
///                      queue  ─► worker 2 ├─► replies ─► writer ─► stdout
///                             ─► …        ┘    queue
/// ```
///
/// Workers answer in parallel, so replies leave in the order they are ready, each carrying
/// its request's id. Only the writer touches standard output, so lines never interleave. Both
/// queues are bounded: a client that sends faster than the service answers is slowed down by
/// its pipe filling up, not by the service's memory growing.
struct LineServer {
    let service: Service
    let workers: Int

    /// Serves until standard input closes, then returns once every reply is written.
    func run() {
        let requests = BlockingQueue<String>(capacity: workers * 8)
        let replies = BlockingQueue<String>(capacity: workers * 8)
        let running = DispatchGroup()

        for number in 1...workers {
            start("worker \(number)", in: running) { [service] in
                let worker = Worker(service: service)
                while let line = requests.take() {
                    replies.put(worker.reply(to: line))
                }
            }
        }
        let writing = DispatchGroup()
        start("writer", in: writing) {
            while let reply = replies.take() {
                FileHandle.standardOutput.write(Data((reply + "\n").utf8))
            }
        }

        while let line = readLine(strippingNewline: true) {
            if line.allSatisfy(\.isWhitespace) { continue }
            requests.put(line)
        }
        requests.close()
        running.wait()
        replies.close()
        writing.wait()
    }

    /// Runs `body` on a thread of its own, inside `group`.
    private func start(_ name: String, in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.name = name
        thread.start()
    }
}

/// Turns request lines into reply lines, on one worker thread.
struct Worker {
    let service: Service
    private let decoder = JSONDecoder()
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(service: Service) {
        self.service = service
    }

    /// The reply to one line: `{"id", "result"}` or `{"id", "error"}`. Never throws: a bad
    /// line gets an error reply and the service goes on.
    func reply(to line: String) -> String {
        let reply: Reply
        do {
            let request = try decoder.decode(RequestLine.self, from: Data(line.utf8))
            do throws(ServiceError) {
                reply = Reply(id: request.id, result: try service.answer(try request.operation.get()))
            } catch {
                reply = Reply(id: request.id, error: error)
            }
        } catch {
            reply = Reply(id: nil, error: .badRequest("the line is not a JSON object"))
        }
        do {
            return String(decoding: try encoder.encode(reply), as: UTF8.self)
        } catch {
            let failure = Reply(id: reply.id, error: .storageFailed("the answer could not be encoded: \(error)"))
            return String(decoding: (try? encoder.encode(failure)) ?? Data(), as: UTF8.self)
        }
    }
}

/// One response line.
struct Reply: Encodable {
    var id: RequestID?
    var result: Answer?
    var error: ServiceError?

    init(id: RequestID?, result: Answer) {
        self.id = id
        self.result = result
    }

    init(id: RequestID?, error: ServiceError) {
        self.id = id
        self.error = error
    }

    private enum CodingKeys: String, CodingKey { case id, result, error }

    /// Writes `"id": null` for a line without a readable id, so every reply has one.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(result, forKey: .result)
        try container.encodeIfPresent(error, forKey: .error)
    }
}
