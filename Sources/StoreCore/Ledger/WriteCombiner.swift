import Foundation
import Synchronization

/// Combines writes that arrive while another is being written into one storage transaction
/// (a group commit): the first caller writes its request; callers arriving meanwhile queue, and
/// when that write ends the first of them writes every queued request, up to
/// ``maximumBatch``, in one transaction, and hands each caller its own answer. So concurrent
/// writers pay one commit between them instead of one each, and no caller waits for more than
/// the write before its own and its own.
///
/// The write is given the batch in the order the callers arrived and answers each request in
/// that order; when it throws, every caller of the batch gets the error.
final class WriteCombiner<Request: Sendable, Answer: Sendable>: Sendable {
    /// The most requests one transaction writes.
    let maximumBatch: Int

    /// What a queued caller is told: its answer, or to write the next batch itself.
    private enum Turn: Sendable {
        case answered(Result<Answer, any Error>)
        case write
    }

    /// Where one caller waits for its turn.
    private final class Slot: Sendable {
        private let turn = Mutex<Turn?>(nil)
        private let signal = DispatchSemaphore(value: 0)

        func give(_ given: Turn) {
            turn.withLock { $0 = given }
            signal.signal()
        }

        func wait() -> Turn {
            signal.wait()
            return turn.withLock { $0! }
        }
    }

    private struct Queue: ~Copyable {
        var waiting: [(request: Request, slot: Slot)] = []
        var isWriting = false
    }

    private let queue = Mutex(Queue())

    /// How many callers wait for a write now, not counting one being written.
    var waitingCount: Int { queue.withLock { $0.waiting.count } }

    /// A combiner writing at most `maximumBatch` requests in one transaction.
    init(maximumBatch: Int = 64) {
        precondition(maximumBatch >= 1)
        self.maximumBatch = maximumBatch
    }

    /// Writes `request` with the requests queued beside it through `write`, which writes a
    /// batch in one transaction and answers each of its requests in order; returns this
    /// request's answer.
    ///
    /// - Throws: what `write` throws for the batch this request was written in.
    func write(_ request: Request, _ write: ([Request]) throws -> [Answer]) throws -> Answer {
        let slot = Slot()
        let writesNow = queue.withLock { queue in
            queue.waiting.append((request, slot))
            guard !queue.isWriting else { return false }
            queue.isWriting = true
            return true
        }
        if !writesNow, case .answered(let answer) = slot.wait() {
            return try answer.get()
        }
        let batch = queue.withLock { queue in
            let taken = Array(queue.waiting.prefix(maximumBatch))
            queue.waiting.removeFirst(taken.count)
            return taken
        }
        let answers: [Result<Answer, any Error>]
        do {
            let written = try write(batch.map(\.request))
            precondition(written.count == batch.count, "a combined write answers each of its requests")
            answers = written.map { .success($0) }
        } catch {
            answers = Array(repeating: .failure(error), count: batch.count)
        }
        let next = queue.withLock { queue -> Slot? in
            guard let first = queue.waiting.first else {
                queue.isWriting = false
                return nil
            }
            return first.slot
        }
        var own: Result<Answer, any Error>?
        for (waiting, answer) in zip(batch, answers) {
            if waiting.slot === slot { own = answer } else { waiting.slot.give(.answered(answer)) }
        }
        next?.give(.write)
        return try own!.get()
    }
}
