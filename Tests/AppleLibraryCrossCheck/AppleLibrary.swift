import Foundation

/// Apple's App Store Server Library for Python, run as a second, independent verifier of
/// signed data through `scripts/crosscheck/verify.py --batch`, with the interpreter of
/// `<package root>/.venv` that `scripts/crosscheck/setup.sh` creates. Shared by the test
/// targets that cross-check StoreRules' payloads.
public enum AppleLibrary {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The virtual environment's interpreter.
    public static let python = packageRoot.appending(path: ".venv/bin/python")
    /// The script that drives Apple's `SignedDataVerifier`.
    public static let script = packageRoot.appending(path: "scripts/crosscheck/verify.py")

    /// Whether the virtual environment exists; cross-checks are skipped without it.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: python.path) }

    /// One payload for Apple's `SignedDataVerifier`, with the verifier's configuration.
    public struct Request: Encodable {
        let root: String
        let bundleId: String
        let environment: String
        let appAppleId: Int64?
        let kind: String
        let jws: String

        /// A payload of `kind` ("transaction", "renewal" or "notification") to verify against
        /// the PEM `root`, for `bundleId` in `environment` ("Sandbox", "Production" …).
        public init(root: String, bundleId: String, environment: String, appAppleId: Int64?, kind: String, jws: String) {
            self.root = root
            self.bundleId = bundleId
            self.environment = environment
            self.appAppleId = appAppleId
            self.kind = kind
            self.jws = jws
        }
    }

    /// Verifies each request with Apple's library, offline and in its default strict mode, in
    /// one interpreter run; returns one JSON result per request: `{"ok": true, "decoded": …}`
    /// or `{"ok": false, "status": "<VerificationStatus name>"}`.
    public static func verify(_ requests: [Request]) throws -> [Data] {
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, "--batch"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let lines = try requests.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) + "\n" }
        let writer = Thread {
            input.fileHandleForWriting.write(Data(lines.joined().utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let results = printed.split(separator: UInt8(ascii: "\n")).map { Data($0) }
        guard process.terminationStatus == 0, results.count == requests.count else {
            throw Failure(message: "verify.py exited with \(process.terminationStatus) after \(results.count) of "
                + "\(requests.count) results: " + String(decoding: complaints, as: UTF8.self))
        }
        return results
    }

    /// Runs one of the package's scripts (a path from the package root) with the library's
    /// interpreter; returns what it printed, or throws with what it complained when it failed.
    public static func runScript(_ path: String, arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = python
        process.arguments = [packageRoot.appending(path: path).path] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(message: "\(path) exited with \(process.terminationStatus): " + String(decoding: complaints, as: UTF8.self))
        }
        return String(decoding: printed, as: UTF8.self)
    }

    /// The script did not answer every request.
    public struct Failure: Error, CustomStringConvertible {
        let message: String
        /// What went wrong.
        public var description: String { message }
    }
}
