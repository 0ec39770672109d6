import Foundation
import StoreService

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
                let worker = JSONLineProtocol(service: service)
                while let line = requests.take() {
                    replies.put(worker.reply(to: Data(line.utf8)))
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
