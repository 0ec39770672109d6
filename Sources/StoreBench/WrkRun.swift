import Foundation

/// One run of `wrk`, the HTTP benchmarking tool, and what it reported.
public struct WrkRun: Sendable, Encodable {
    /// Requests answered per second.
    public var requestsPerSecond: Double
    /// The median latency, in milliseconds.
    public var p50Milliseconds: Double
    /// The 99th-percentile latency, in milliseconds.
    public var p99Milliseconds: Double
    /// Requests answered.
    public var requests: Int
    /// Answers that were not 2xx or 3xx.
    public var non2xxResponses: Int
    /// Connect, read, write and timeout errors.
    public var socketErrors: Int

    private enum CodingKeys: String, CodingKey {
        case requestsPerSecond = "requests_per_second", p50Milliseconds = "p50_ms", p99Milliseconds = "p99_ms"
        case requests, non2xxResponses = "non_2xx_responses", socketErrors = "socket_errors"
    }

    /// Where wrk is found.
    public static let executable: URL? = ["/usr/bin/wrk", "/usr/local/bin/wrk"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Runs wrk against `url` with `connections` connections on `threads` threads for
    /// `seconds`, with the Lua `script` (and its arguments) when given, and `headers`.
    ///
    /// - Throws: ``BenchFailure`` when wrk is missing, fails, or prints what it never prints.
    public static func run(url: String, connections: Int, threads: Int, seconds: Int, headers: [String] = [],
                           script: String? = nil, scriptArguments: [String] = []) throws -> WrkRun {
        try start(url: url, connections: connections, threads: threads, seconds: seconds, headers: headers,
                  script: script, scriptArguments: scriptArguments).finish()
    }

    /// A wrk process running; ``finish()`` waits for it and reads its report.
    public struct Running {
        let process: Process
        let output: Pipe

        /// Waits for wrk to end and reads what it reported.
        public func finish() throws -> WrkRun {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            guard process.terminationStatus == 0 else { throw BenchFailure("wrk failed: \(text)") }
            return try WrkRun(report: text)
        }
    }

    /// Starts wrk without waiting for it.
    public static func start(url: String, connections: Int, threads: Int, seconds: Int, headers: [String] = [],
                             script: String? = nil, scriptArguments: [String] = []) throws -> Running {
        guard let executable else { throw BenchFailure("wrk is not installed (apt install wrk)") }
        let process = Process()
        process.executableURL = executable
        var arguments = ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency", "--timeout", "10s"]
        for header in headers { arguments += ["-H", header] }
        if let script { arguments += ["-s", script] }
        arguments.append(url)
        if !scriptArguments.isEmpty { arguments += ["--"] + scriptArguments }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return Running(process: process, output: output)
    }

    /// Reads wrk's report.
    init(report text: String) throws {
        func number(after label: String) -> Double? {
            guard let range = text.range(of: label) else { return nil }
            let rest = text[range.upperBound...].drop { $0 == " " }
            return Double(rest.prefix { "0123456789.".contains($0) })
        }
        func latency(_ percentile: String) -> Double? {
            guard let line = text.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(percentile + " ") }) else {
                return nil
            }
            let value = line.split(separator: " ").last.map(String.init) ?? ""
            let digits = Double(value.prefix { "0123456789.".contains($0) }) ?? .nan
            if value.hasSuffix("us") { return digits / 1000 }
            if value.hasSuffix("ms") { return digits }
            if value.hasSuffix("s") { return digits * 1000 }
            return nil
        }
        guard let rate = number(after: "Requests/sec:"), let p50 = latency("50%"), let p99 = latency("99%"),
              let requests = text.range(of: #"(\d+) requests in"#, options: .regularExpression).flatMap({ Int(text[$0].split(separator: " ")[0]) })
        else { throw BenchFailure("wrk printed no report: \(text)") }
        requestsPerSecond = rate
        p50Milliseconds = p50
        p99Milliseconds = p99
        self.requests = requests
        non2xxResponses = Int(number(after: "Non-2xx or 3xx responses:") ?? 0)
        var errors = 0
        if let line = text.split(separator: "\n").first(where: { $0.contains("Socket errors:") }) {
            errors = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.reduce(0, +)
        }
        socketErrors = errors
    }
}

/// A benchmark that could not be measured.
public struct BenchFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Describes a failure.
    public init(_ description: String) {
        self.description = description
    }
}
