import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
import TestPrerequisites

/// A running `storerules serve` over a temporary copy of the Backyard Birds folder, trusting
/// ``ServiceProcess/authority``'s root, listening on a free loopback port; requests go through
/// URLSession, a real HTTP client.
final class ServeProcess: @unchecked Sendable {
    /// The API keys the server accepts, by role.
    static let appKey = "app-key-0123456789abcdef"
    static let adminKey = "admin-key-0123456789abcdef"

    /// One HTTP exchange's answer.
    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The error's kind, for an error body.
        var errorKind: String? { (json["error"] as? [String: Any])?["kind"] as? String }
    }

    let directory: URL
    let folder: URL
    let keysPath: String
    /// `http://127.0.0.1:PORT`.
    let baseURL: URL
    /// What the server printed to standard error so far.
    var standardError: String { errors.text }

    private let process: Process
    private let errors = OutputBuffer()
    private let session: URLSession

    /// Starts a server on `ledger` (a new SQLite file when nil) with `extra` arguments;
    /// `auth: false` starts it with `--insecure-no-auth` instead of keys. It trusts `rootPEM`,
    /// or ``ServiceProcess/authority``'s root.
    init(ledger: String? = nil, auth: Bool = true, extra: [String] = [], folder existing: URL? = nil, rootPEM: String? = nil) throws {
        directory = try TestFolders.make("serve")
        if let existing {
            folder = existing
        } else {
            folder = directory.appendingPathComponent("BackyardBirds")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let example = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds")
            for name in ["policy.lua", "Products.storekit"] {
                try FileManager.default.copyItem(at: example.appendingPathComponent(name), to: folder.appendingPathComponent(name))
            }
        }
        let rootPath = directory.appendingPathComponent("root.pem").path
        try (rootPEM ?? ServiceProcess.authority.rootCertificate.pemRepresentation).write(toFile: rootPath, atomically: true, encoding: .utf8)
        keysPath = directory.appendingPathComponent("keys").path
        try "# test keys\napp \(Self.appKey)\nadmin \(Self.adminKey)\n".write(toFile: keysPath, atomically: true, encoding: .utf8)

        process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = [
            "serve", folder.path, "--ledger", ledger ?? directory.appendingPathComponent("ledger.sqlite").path, "--root", rootPath,
            "--bundle-id", ServiceProcess.bundleId, "--environment", "Sandbox", "--listen", "127.0.0.1:0", "--threads", "4",
        ] + (auth ? ["--api-keys", keysPath] : ["--insecure-no-auth"]) + extra
        let output = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = output
        process.standardError = errorPipe
        try process.run()
        let errors = errors
        Thread {
            let handle = errorPipe.fileHandleForReading
            while case let chunk = handle.availableData, !chunk.isEmpty {
                errors.append(chunk)
            }
        }.start()
        baseURL = try Self.listeningURL(from: output.fileHandleForReading, process: process, errors: errors)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends one request and waits for its answer; `key` nil sends no `Authorization`.
    func request(_ method: String, _ path: String, body: Data? = nil, key: String? = ServeProcess.appKey,
                 headers: [String: String] = [:]) throws -> Reply {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let outcome = Mutex<Result<Reply, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            if let error {
                outcome.withLock { $0 = .failure(error) }
            } else if let response = response as? HTTPURLResponse {
                let headers = Dictionary(response.allHeaderFields.compactMap { key, value in
                    (key as? String).map { ($0.lowercased(), "\(value)") }
                }, uniquingKeysWith: { first, _ in first })
                outcome.withLock { $0 = .success(Reply(status: response.statusCode, headers: headers, body: data ?? Data())) }
            }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 90) == .success else { throw ServeTimeout(what: "\(method) \(path)") }
        return try outcome.withLock { $0 }!.get()
    }

    /// Sends `object` as a JSON body.
    func request(_ method: String, _ path: String, json object: Any, key: String? = ServeProcess.appKey) throws -> Reply {
        try request(method, path, body: try JSONSerialization.data(withJSONObject: object), key: key)
    }

    /// Sends SIGTERM and waits for the exit status.
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends `signal` to the server.
    func send(signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The URL the server's first line of output names.
    private static func listeningURL(from output: FileHandle, process: Process, errors: OutputBuffer) throws -> URL {
        var line = Data()
        let deadline = Date(timeIntervalSinceNow: 60)
        while !line.contains(0x0A) {
            let chunk = output.availableData
            guard !chunk.isEmpty else {
                process.waitUntilExit()
                throw ServeStartFailure(status: process.terminationStatus, standardError: errors.text)
            }
            line.append(chunk)
            guard Date() < deadline else { throw ServeTimeout(what: "the server's first line") }
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"https?://[^ ]+"#, options: .regularExpression), let url = URL(string: String(text[range])) else {
            throw ServeStartFailure(status: -1, standardError: "unexpected first line: \(text)")
        }
        return url
    }
}

/// What a process wrote to a pipe so far, gathered by a reading thread.
final class OutputBuffer: Sendable {
    private let data = Mutex(Data())

    /// Appends what was read.
    func append(_ chunk: Data) {
        data.withLock { $0.append(chunk) }
    }

    /// Everything so far, as text.
    var text: String {
        data.withLock { String(decoding: $0, as: UTF8.self) }
    }
}

/// The server exited before it listened.
struct ServeStartFailure: Error, CustomStringConvertible {
    let status: Int32
    let standardError: String
    var description: String { "storerules serve exited with \(status): \(standardError)" }
}

/// Something did not happen in time.
struct ServeTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}
