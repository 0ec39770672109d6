import CEditLine
import CommandLineOptions
import Foundation
import StoreJourneys
import StorePolicy

/// `storerules repl DIR [--watch]`.
enum REPLCommand: Command {
    static let name = "repl"
    static let summary = "A Lua prompt with the catalog, the policy and a customer context loaded"
    static var help: String { """
    Usage: storerules repl DIR [--watch]

    Opens a Lua prompt in the policy sandbox with DIR's catalog and policy loaded and a
    customer context at hand. On a terminal, lines are edited with libedit and kept in
    ~/.storerules_history; from a pipe, each line of the input runs in turn and only the
    results print. A statement may span several lines. An error prints and the prompt stays;
    it names the line of the input (input:1). The exit status is 1 when any line failed (a Lua
    error, a failed expect_*, an unknown or failed command), so a piped script can gate CI.

    \(PolicyREPL.help)

    Options:
    \(HelpText.options(syntax.options))
    """ }

    static let watchFlag = CommandOption.flag(
        "watch", help: "Reload policy.lua before a line runs when the file changed; a broken edit keeps the old policy and prints why.")

    static let syntax = CommandSyntax(name, options: [
        watchFlag,
    ] + PolicyLoader.limitOptions)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let path = try parsed.positional(0, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 1)
        let (folder, _) = try PolicyLoader.open(path)
        let session: PolicyREPL
        do {
            session = try PolicyREPL(folder: folder, limits: try PolicyLoader.limits(parsed))
        } catch let error as PolicyError {
            throw CommandFailure(error.description)
        }
        for warning in session.warnings { Output.error("storerules repl: warning: \(warning)") }
        let interactive = isatty(STDIN_FILENO) == 1
        let lines: LineSource = interactive ? EditedLines() : PipedLines()
        if interactive {
            Output.line("StoreRules policy REPL for \(path). :help lists the commands, :quit leaves.")
        }
        while let line = lines.next(prompt: session.prompt) {
            if parsed.flag(watchFlag), let reloaded = session.reloadIfChanged() {
                Output.line(reloaded)
            }
            switch session.handle(line) {
            case .output(let text):
                if !text.isEmpty { Output.line(text) }
            case .needsMoreInput:
                continue
            case .quit:
                return session.anyLineFailed ? 1 : 0
            }
        }
        return session.anyLineFailed ? 1 : 0
    }
}

/// Where REPL lines come from.
protocol LineSource {
    /// The next line, or nil at the end of the input.
    func next(prompt: String) -> String?
}

/// Lines from a pipe: no prompt, no editing.
struct PipedLines: LineSource {
    func next(prompt: String) -> String? { readLine(strippingNewline: true) }
}

/// Lines from a terminal, edited with libedit, with a history file.
final class EditedLines: LineSource {
    private let historyPath = FileManager.default.homeDirectoryForCurrentUser
        .appendingPathComponent(".storerules_history").path

    init() {
        _ = read_history(historyPath)
    }

    deinit {
        _ = write_history(historyPath)
    }

    func next(prompt: String) -> String? {
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        let line = String(cString: raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            add_history(raw)
            _ = write_history(historyPath)
        }
        return line
    }
}
