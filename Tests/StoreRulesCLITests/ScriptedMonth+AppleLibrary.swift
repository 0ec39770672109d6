import Foundation

extension ScriptedMonth {
    /// Apple's App Store Server Library for Python, run through `scripts/crosscheck/verify.py
    /// --batch` with the interpreter of `<package root>/.venv` (made by
    /// `scripts/crosscheck/setup.sh`): every payload in one interpreter start.
    enum AppleLibrary {
        static let python = CommandRunner.packageRoot.appendingPathComponent(".venv/bin/python")
        static let script = CommandRunner.packageRoot.appendingPathComponent("scripts/crosscheck/verify.py")

        /// Whether the virtual environment exists; the checks with Apple's library are skipped
        /// without it.
        static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: python.path) }

        /// One payload for Apple's `SignedDataVerifier`, with the verifier's configuration.
        struct Request: Encodable {
            let root: String
            let bundleId: String
            let environment: String
            let appAppleId: Int64?
            let kind: String
            let jws: String
        }

        /// What `verify.py` printed for one payload: `ok` with the decoded payload, or the
        /// library's `VerificationStatus` name.
        struct Verdict {
            let ok: Bool
            let status: String?
            let decoded: [String: Any]
        }

        /// Verifies each request with Apple's library, offline, in one interpreter run.
        static func verify(_ requests: [Request]) throws -> [Verdict] {
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
            let results = printed.split(separator: UInt8(ascii: "\n"))
            guard process.terminationStatus == 0, results.count == requests.count else {
                throw Failure(message: "verify.py exited with \(process.terminationStatus) after \(results.count) of "
                    + "\(requests.count) results: " + String(decoding: complaints, as: UTF8.self))
            }
            return try results.map { line in
                let object = try StoreCommandTests.object(Data(line))
                return Verdict(ok: object["ok"] as? Bool == true, status: object["status"] as? String,
                               decoded: object["decoded"] as? [String: Any] ?? [:])
            }
        }

        struct Failure: Error, CustomStringConvertible {
            let message: String
            var description: String { message }
        }
    }
}
