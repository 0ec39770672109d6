import COpenSSL

/// OpenSSL's per-thread error queue, read into text for StoreRules' own error types.
enum OpenSSLErrorQueue {
    /// Empties the queue and returns its messages, or `fallback` when OpenSSL left none.
    static func drain(fallback: String) -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? fallback : "\(fallback): \(messages.joined(separator: "; "))"
    }

    /// Empties the queue, discarding what OpenSSL recorded for a failure already reported.
    static func clear() {
        ERR_clear_error()
    }
}
