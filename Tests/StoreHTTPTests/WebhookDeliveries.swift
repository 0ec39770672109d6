import Foundation
import StoreService
import Synchronization

/// The deliveries a test's receiver got, written one JSON line each (the secret, the three
/// `webhook-` headers and the body) to the file `STORERULES_WEBHOOK_DELIVERIES` names when it
/// is set, for `scripts/contract/verify_webhooks.py` to verify with the Standard Webhooks
/// reference library after the suites ran (`scripts/test.sh` does).
enum WebhookDeliveries {
    private static let file: Mutex<FileHandle?> = Mutex(ProcessInfo.processInfo.environment["STORERULES_WEBHOOK_DELIVERIES"].flatMap { path in
        if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = FileHandle(forWritingAtPath: path)
        _ = try? handle?.seekToEnd()
        return handle
    })

    /// Appends each delivery with the secret it was signed with, when a file is named.
    static func record(_ deliveries: [WebhookReceiver.Delivery], secret: WebhookSecret) {
        file.withLock { handle in
            guard let handle else { return }
            for delivery in deliveries {
                let line: [String: String] = [
                    "secret": secret.text, "webhook-id": delivery.id, "webhook-timestamp": delivery.timestamp,
                    "webhook-signature": delivery.signature, "body": delivery.body,
                ]
                guard let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { continue }
                handle.write(data + Data("\n".utf8))
            }
        }
    }
}
