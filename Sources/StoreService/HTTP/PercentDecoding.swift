/// Strict percent-decoding of a request target's path segments and query values.
///
/// Nothing is folded or truncated: a `%` not followed by two hex digits, an escaped NUL
/// (`%00`), bytes that are not UTF-8 and, in a path segment, an escaped `/` (`%2F`) are
/// refused with a message that names the rule.
enum PercentDecoding {
    /// `text` decoded; `allowsSlash` is false for a path segment.
    static func decode(_ text: Substring, allowsSlash: Bool) throws(ServiceError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .badRequest("'\(text)' has a '%' not followed by two hex digits")
            }
            let decoded = high << 4 | low
            if decoded == 0 { throw .badRequest("'\(text)' holds an escaped NUL (%00), which no name may hold") }
            if decoded == UInt8(ascii: "/"), !allowsSlash {
                throw .badRequest("'\(text)' holds an escaped '/' (%2F), which a path segment may not hold")
            }
            bytes.append(decoded)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .badRequest("'\(text)' decodes to bytes that are not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
