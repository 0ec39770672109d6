/// Strict percent-decoding of a URL's path segments and query names and values, for every
/// server in StoreRules (the service's router, the local store's App Store Server API).
///
/// Nothing is folded or truncated: a `%` not followed by two hex digits, an escaped NUL
/// (`%00`), bytes that are not UTF-8 and, where a `/` may not be escaped, `%2F` are refused
/// with a message that names the rule.
public enum PercentDecoding {
    /// Why a text cannot be decoded, in a sentence that quotes it.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The sentence.
        public let description: String
    }

    /// `text` decoded; `allowsSlash` is false for a path segment of a server whose routes an
    /// escaped `/` could confuse.
    ///
    /// - Throws: ``Failure`` naming the rule `text` breaks.
    public static func decode(_ text: Substring, allowsSlash: Bool) throws(Failure) -> String {
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
                throw Failure(description: "'\(text)' has a '%' not followed by two hex digits")
            }
            let decoded = high << 4 | low
            if decoded == 0 { throw Failure(description: "'\(text)' holds an escaped NUL (%00), which no name may hold") }
            if decoded == UInt8(ascii: "/"), !allowsSlash {
                throw Failure(description: "'\(text)' holds an escaped '/' (%2F), which a path segment may not hold")
            }
            bytes.append(decoded)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw Failure(description: "'\(text)' decodes to bytes that are not UTF-8")
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
