import Dispatch
import Foundation

/// The write end of the pipe the signal handler writes a signal's number to.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The signal handler: one byte to the pipe, all it may safely do, leaving `errno` as the
/// interrupted code had it.
private func noteSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// The signals a running server answers: SIGTERM and SIGINT end ``wait()``, SIGHUP re-reads
/// the API keys. Taken over before the server says it listens, so no signal sent once it has
/// said so finds the default action. The handler writes each signal to a pipe, whichever thread
/// it lands on; a thread of its own reads the pipe and acts.
final class ServeSignals: @unchecked Sendable {
    private let readEnd: Int32
    private let stopped = DispatchSemaphore(value: 0)
    private let timer: DispatchSourceTimer

    /// Takes over SIGTERM, SIGINT and SIGHUP, calling `reloadKeys` on each SIGHUP and `tick`
    /// about every half second.
    ///
    /// - Throws: ``CommandFailure`` when the pipe cannot be made.
    init(reloadKeys: @escaping @Sendable () -> Void, tick: @escaping @Sendable () -> Void) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw CommandFailure("cannot make the pipe signals are read from: \(String(cString: strerror(errno)))")
        }
        readEnd = ends[0]
        signalPipeWriteEnd = ends[1]
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, noteSignal)
        }
        let (readEnd, stopped) = (readEnd, stopped)
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                if Int32(byte) == SIGHUP {
                    reloadKeys()
                } else {
                    stopped.signal()
                    return
                }
            }
            stopped.signal()
        }
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "storerules.serve.tick"))
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        timer.setEventHandler(handler: tick)
        timer.resume()
    }

    /// Waits for SIGTERM or SIGINT.
    func wait() async {
        let stopped = stopped
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                stopped.wait()
                continuation.resume()
            }
        }
        timer.cancel()
    }
}
