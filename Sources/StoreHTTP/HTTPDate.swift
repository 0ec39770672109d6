import Foundation
import Synchronization

/// The `Date` header's text (`Wed, 02 Dec 2026 08:35:25 GMT`), made once a second.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))

    /// Now, as a `Date` header says it.
    static var now: String {
        var seconds = time(nil)
        return cache.withLock { cache in
            if cache.second == seconds { return cache.text }
            var parts = tm()
            gmtime_r(&seconds, &parts)
            var buffer = [CChar](repeating: 0, count: 64)
            let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            cache = (seconds, String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
            return cache.text
        }
    }
}
