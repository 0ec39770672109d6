import Foundation

/// The lines a process writes to a pipe, read by a thread of their own as they come (so the
/// pipe never fills), for a test to wait on one at a time instead of sleeping.
final class OutputLines: @unchecked Sendable {
    // `lines`, `partial` and `ended` are used only while `condition` is locked.
    private let condition = NSCondition()
    private var lines: [String] = []
    private var partial = Data()
    private var ended = false
    private var taken = 0

    /// Starts reading `handle` until it ends.
    init(_ handle: FileHandle) {
        Thread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty {
                condition.lock()
                partial.append(chunk)
                while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                    partial.removeSubrange(partial.startIndex...newline)
                }
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            if !partial.isEmpty { lines.append(String(decoding: partial, as: UTF8.self)) }
            ended = true
            condition.broadcast()
            condition.unlock()
        }.start()
    }

    /// The next line not yet taken, waiting up to `timeout` for it; nil when the output ended or
    /// the time passed first.
    func next(within timeout: Duration) -> String? {
        first(within: timeout) { _ in true }
    }

    /// The first line not yet taken that contains `text`, waiting up to `timeout` for it; the
    /// lines before it are taken too. Nil when the output ended or the time passed first.
    func first(containing text: String, within timeout: Duration) -> String? {
        first(within: timeout) { $0.contains(text) }
    }

    /// The port `program` (`storerules serve`, `storerules store api`) says it listens on, in its
    /// line `PROGRAM: listening on http://127.0.0.1:PORT …`, waiting up to `timeout` for it.
    func listeningPort(of program: String, within timeout: Duration) -> Int? {
        guard let line = first(containing: "\(program): listening on ", within: timeout),
              let address = line.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else { return nil }
        return Int(line[address].split(separator: ":")[1])
    }

    /// Everything read so far, taken or not, as text.
    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return (lines + (partial.isEmpty ? [] : [String(decoding: partial, as: UTF8.self)])).joined(separator: "\n")
    }

    private func first(within timeout: Duration, where matches: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while taken < lines.count {
                let line = lines[taken]
                taken += 1
                if matches(line) { return line }
            }
            guard !ended, condition.wait(until: deadline) else { return nil }
        }
    }
}
