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

    /// The reply to one line: `{"id": …, "result": …}` or `{"id": …, "error": …}`, the id
    /// first (`null` for a line without a readable one) so a client can match replies without
    /// parsing the rest. Never throws: a bad line gets an error reply and the service goes on.
    func reply(to line: String) -> String {
        let id: RequestID?
        let outcome: Result<Answer, ServiceError>
        do {
            let request = try decoder.decode(RequestLine.self, from: Data(line.utf8))
            id = request.id
            do throws(ServiceError) {
                outcome = .success(try service.answer(try request.operation.get()))
            } catch {
                outcome = .failure(error)
            }
        } catch {
            id = nil
            outcome = .failure(.badRequest("the line is not a JSON object"))
        }
        let idText = id.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        switch outcome {
        case .success(let answer):
            do {
                return #"{"id":\#(idText),"result":\#(String(decoding: try encoder.encode(answer), as: UTF8.self))}"#
            } catch {
                return errorLine(idText, .unencodable("the answer could not be written as JSON: \(error)"))
            }
        case .failure(let error):
            return errorLine(idText, error)
        }
    }

    private func errorLine(_ idText: String, _ error: ServiceError) -> String {
        let body = (try? encoder.encode(error)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return #"{"id":\#(idText),"error":\#(body)}"#
    }
}
