import Foundation

/// Colours on a terminal, plain text when piped or when `NO_COLOR` is set.
struct TerminalStyle {
    let enabled: Bool

    /// The style for standard output.
    static var forStandardOutput: TerminalStyle {
        TerminalStyle(enabled: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
    }

    private func paint(_ code: String, _ text: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func red(_ text: String) -> String { paint("31", text) }
    func green(_ text: String) -> String { paint("32", text) }
    func yellow(_ text: String) -> String { paint("33", text) }
    func bold(_ text: String) -> String { paint("1", text) }
    func dim(_ text: String) -> String { paint("2", text) }
}
