import Dispatch
import Foundation

/// The signals a running server answers: SIGTERM and SIGINT end ``wait()``, SIGHUP re-reads
/// the API keys. Made before the server says it listens, so that no signal sent once it has
/// said so finds the default action.
final class ServeSignals: @unchecked Sendable {
    private let queue = DispatchQueue(label: "storerules.serve.signals")
    private let stopped = DispatchSemaphore(value: 0)
    private var sources: [DispatchSourceSignal] = []
    private let timer: DispatchSourceTimer

    /// Takes over SIGTERM, SIGINT and SIGHUP, calling `reloadKeys` on each SIGHUP and `tick`
    /// about every half second.
    init(reloadKeys: @escaping @Sendable () -> Void, tick: @escaping @Sendable () -> Void) {
        let stopped = stopped
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if number == SIGHUP { reloadKeys() } else { stopped.signal() }
            }
            source.resume()
            sources.append(source)
        }
        timer = DispatchSource.makeTimerSource(queue: queue)
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
        sources.forEach { $0.cancel() }
    }
}
