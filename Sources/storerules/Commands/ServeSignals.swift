import Dispatch
import Foundation

/// The signals a running server answers: SIGTERM and SIGINT end the wait, SIGHUP re-reads
/// the API keys.
enum ServeSignals {
    /// Waits for SIGTERM or SIGINT, calling `reloadKeys` on each SIGHUP and `tick` about every
    /// half second meanwhile.
    static func wait(reloadKeys: @escaping @Sendable () -> Void, tick: @escaping @Sendable () -> Void) async {
        let queue = DispatchQueue(label: "storerules.serve.signals")
        let stopped = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if number == SIGHUP { reloadKeys() } else { stopped.signal() }
            }
            source.resume()
            sources.append(source)
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        timer.setEventHandler(handler: tick)
        timer.resume()
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
