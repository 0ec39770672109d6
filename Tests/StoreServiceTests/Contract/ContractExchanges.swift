import Foundation
import StoreService
import Synchronization

/// The route tests' real requests and answers, written one JSON line each to the file
/// `STORERULES_CONTRACT_EXCHANGES` names when it is set, for `scripts/contract/validate_exchanges.py`
/// to validate against the OpenAPI document after the suites ran (`scripts/test.sh` does).
enum ContractExchanges {
    private static let file: Mutex<FileHandle?> = Mutex(ProcessInfo.processInfo.environment["STORERULES_CONTRACT_EXCHANGES"].flatMap { path in
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = FileHandle(forWritingAtPath: path)
        _ = try? handle?.seekToEnd()
        return handle
    })

    /// Appends `request` and `response` to the file, when one is named.
    static func record(_ request: HTTPRequest, _ response: HTTPResponse) {
        file.withLock { handle in
            guard let handle else { return }
            let exchange: [String: Any] = [
                "method": request.method, "path": request.path, "query": request.query, "request_headers": request.headers,
                "request_body": request.body.isEmpty ? NSNull() : String(decoding: request.body, as: UTF8.self) as Any,
                "status": response.status, "response_headers": response.headers,
                "response_body": String(decoding: response.body, as: UTF8.self),
            ]
            guard let line = try? JSONSerialization.data(withJSONObject: exchange, options: [.sortedKeys]) else { return }
            handle.write(line + Data("\n".utf8))
        }
    }
}
