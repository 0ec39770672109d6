import Foundation
import StoreService
import TestPrerequisites

/// The Standard Webhooks reference library (`standardwebhooks`, in `<package root>/.venv-contract`,
/// which `scripts/contract/setup.sh` installs) as the judge of a receiver's deliveries, through
/// `scripts/contract/verify_webhooks.py`: each must verify, and fail with a changed body, another
/// secret or an old timestamp.
enum StandardWebhooksJudge {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let python = packageRoot.appending(path: ".venv-contract/bin/python")

    /// Whether the judge runs: when its environment exists, and always under CI.
    static var runs: Bool { TestPrerequisite.runs(FileManager.default.isExecutableFile(atPath: python.path)) }

    /// The judge's verdict on `deliveries`, signed with `secret`: how many verified, how many of
    /// the altered copies it refused, how many bodies are what the contract's `webhooks` say, and
    /// what misbehaved.
    struct Verdict: Decodable {
        let verified: Int
        let refused: Int
        let conforming: Int
        let problems: [String]
    }

    static func judge(_ deliveries: [WebhookReceiver.Delivery], secret: WebhookSecret) throws -> Verdict {
        let lines = try deliveries.map { delivery -> String in
            let line = ["secret": secret.text, "webhook-id": delivery.id, "webhook-timestamp": delivery.timestamp,
                        "webhook-signature": delivery.signature, "body": delivery.body]
            return String(decoding: try JSONSerialization.data(withJSONObject: line), as: UTF8.self) + "\n"
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [packageRoot.appending(path: "scripts/contract/verify_webhooks.py").path,
                             "--contract", packageRoot.appending(path: "Sources/StoreService/Contract/openapi.json").path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(lines.joined().utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let verdict = try? JSONDecoder().decode(Verdict.self, from: printed) else {
            throw JudgeFailure(description: "verify_webhooks.py exited with \(process.terminationStatus): "
                + String(decoding: complaints, as: UTF8.self))
        }
        return verdict
    }

    struct JudgeFailure: Error, CustomStringConvertible {
        let description: String
    }
}
