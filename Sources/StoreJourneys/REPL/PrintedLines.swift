import Synchronization

/// Lines policy code printed, collected across the `@Sendable` print handler.
final class PrintedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    func take() -> [String] { lines.withLock { lines in defer { lines = [] }; return lines } }
}
