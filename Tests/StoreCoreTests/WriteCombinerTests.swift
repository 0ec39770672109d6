import Foundation
import Synchronization
import Testing
@testable import StoreCore

@Suite struct WriteCombinerTests {
    /// Waits until `condition` holds, for at most ten seconds.
    private static func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { usleep(1_000) }
    }

    /// Runs `body` on a thread of its own; `done` leaves when it has returned.
    private static func onThread(_ done: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        done.enter()
        Thread { body(); done.leave() }.start()
    }

    @Test func callersArrivingDuringAWriteAreWrittenTogetherInTheNextAndEachGetsItsOwnAnswer() throws {
        let combiner = WriteCombiner<Int, String>()
        let batches = Mutex<[[Int]]>([])
        let answers = Mutex<[Int: String]>([:])
        let write: @Sendable ([Int]) throws -> [String] = { batch in
            batches.withLock { $0.append(batch) }
            if batch == [0] { Self.waitUntil { combiner.waitingCount == 7 } }
            return batch.map { "answer \($0)" }
        }
        let done = DispatchGroup()
        for request in 0...7 {
            Self.onThread(done) {
                let answer = try? combiner.write(request, write)
                answers.withLock { $0[request] = answer }
            }
            if request == 0 { Self.waitUntil { batches.withLock { !$0.isEmpty } } }
        }
        done.wait()
        #expect(answers.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0...7).map { ($0, "answer \($0)") }))
        let written = batches.withLock { $0 }
        #expect(written.count == 2, "the first write alone, then the seven that queued behind it in one: \(written)")
        #expect(written.last.map(Set.init) == Set(1...7))
        #expect(combiner.waitingCount == 0)
    }

    @Test func aFailedWriteFailsEveryCallerOfItsBatchAndTheNextBatchIsWrittenAgain() throws {
        struct Refused: Error {}
        let combiner = WriteCombiner<Int, Int>(maximumBatch: 2)
        let started = Mutex(false)
        let outcomes = Mutex<[Int: Bool]>([:])
        let write: @Sendable ([Int]) throws -> [Int] = { batch in
            if batch == [0] {
                started.withLock { $0 = true }
                Self.waitUntil { combiner.waitingCount == 4 }
                return [0]
            }
            if batch.contains(1) { throw Refused() }
            return batch
        }
        let done = DispatchGroup()
        for request in 0...4 {
            Self.onThread(done) {
                let written = (try? combiner.write(request, write)) != nil
                outcomes.withLock { $0[request] = written }
            }
            if request == 0 {
                Self.waitUntil { started.withLock { $0 } }
            } else if request < 4 {
                Self.waitUntil { combiner.waitingCount == request }
            }
        }
        done.wait()
        #expect(outcomes.withLock { $0 } == [0: true, 1: false, 2: false, 3: true, 4: true],
                "requests 1 and 2 shared the batch that failed; 3 and 4 were written after it")
    }
}
