import Foundation

/// A PostgreSQL server of one test's own, started by `scripts/postgres-test-server.sh` in a new
/// temporary folder and stopped with this object, that the test may freeze — the postmaster and
/// every process it started stopped with `SIGSTOP`, as a hung server or a network that drops
/// packets leaves its clients: connections stay open, new ones are accepted by the kernel, and
/// nothing answers — and thaw again. The shared test server is never frozen: others use it.
public final class FreezablePostgresServer: @unchecked Sendable {
    /// The server's URL, such as `postgresql://postgres@127.0.0.1:54321/postgres`.
    public let url: String
    private let folder: URL
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "scripts/postgres-test-server.sh")

    /// Starts the server.
    ///
    /// - Throws: ``FreezablePostgresServerError`` when it does not start, with the script's output.
    public init() throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "storerules-freezable-\(UUID().uuidString)")
        url = try Self.runScript("start", folder).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops every process of the server (`SIGSTOP`), the postmaster first, so it starts no other.
    public func freeze() throws {
        let postmaster = try postmasterID()
        kill(postmaster, SIGSTOP)
        for child in Self.children(of: postmaster) { kill(child, SIGSTOP) }
    }

    /// Lets every process of the server run again (`SIGCONT`).
    public func thaw() throws {
        let postmaster = try postmasterID()
        for child in Self.children(of: postmaster) { kill(child, SIGCONT) }
        kill(postmaster, SIGCONT)
    }

    deinit {
        try? thaw()
        _ = try? Self.runScript("stop", folder)
    }

    /// The postmaster's process id, the first line of its pid file.
    private func postmasterID() throws -> pid_t {
        let text = try String(contentsOf: folder.appending(path: "data/postmaster.pid"), encoding: .utf8)
        guard let line = text.split(separator: "\n").first, let pid = pid_t(line) else {
            throw FreezablePostgresServerError(description: "the server's pid file names no process: \(text)")
        }
        return pid
    }

    /// The processes whose parent is `parent`, from `/proc`.
    private static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let nameEnd = stat.lastIndex(of: ")") else { return nil }
            // After the command's name: the state, then the parent's id.
            let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }

    /// Runs the test server script with `command` and `folder`, waiting for it with `waitpid`;
    /// its standard output.
    private static func runScript(_ command: String, _ folder: URL) throws -> String {
        let outputPath = folder.path + ".out"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let words = ["/bin/bash", script.path, command, folder.path]
        let settings = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { (word: String) -> UnsafeMutablePointer<CChar>? in strdup(word) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = settings.map { (setting: String) -> UnsafeMutablePointer<CChar>? in strdup(setting) } + [nil]
        defer { (arguments + variables).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, arguments, variables)
        guard spawned == 0 else {
            throw FreezablePostgresServerError(description: "postgres-test-server.sh \(command) did not start: error \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited with 0: the low byte of the status (the signal) and the exit code are both zero.
        guard status == 0 else {
            throw FreezablePostgresServerError(description: "postgres-test-server.sh \(command) failed (status \(status)): \(printed)")
        }
        return printed
    }
}

/// Why a ``FreezablePostgresServer`` could not start or be frozen.
public struct FreezablePostgresServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}
