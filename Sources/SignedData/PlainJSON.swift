import Foundation

/// A JSON text parsed into a flat list of nodes, when it keeps to the plain subset App Store
/// payloads are written in; ``SignedPayloadJSON`` decodes such text without Foundation's
/// `JSONDecoder`, which remains the judge of every other text.
///
/// The subset: UTF-8 without a byte-order mark; objects without repeated keys; arrays; strings
/// of printable ASCII without escapes; integers from 0 to 10¹⁸ − 1 without sign, fraction or
/// exponent; `true`, `false` and `null`; at most ``maximumDepth`` levels of nesting. Every
/// text in the subset is valid JSON and means the same to `JSONDecoder`; parsing any other
/// text returns nil.
final class PlainJSON {
    /// What a node holds.
    enum Kind {
        /// An object; its keys and values follow it in ``nodes``, alternating.
        case object
        /// An array; its elements follow it in ``nodes``.
        case array
        /// A string: `start..<end` are its bytes in ``bytes``, without the quotes.
        case string
        /// A non-negative integer, in `integer`.
        case integer
        /// `true` or `false`, as `integer` 1 or 0.
        case boolean
        /// `null`.
        case null
    }

    /// One value of the text.
    struct Node {
        /// What the node holds.
        var kind: Kind
        /// For a string, where its bytes start.
        var start = 0
        /// For a string, where its bytes end.
        var end = 0
        /// For an integer, its value; for a boolean, 1 or 0; for an object, its number of
        /// keys; for an array, its number of elements.
        var integer: Int64 = 0
        /// The index of the node after this value and everything inside it.
        var next = 0
    }

    /// How deeply objects and arrays may nest.
    static let maximumDepth = 32

    /// The text's bytes.
    let bytes: [UInt8]
    /// The values of the text in order of appearance, the whole text's value first.
    let nodes: [Node]

    /// Parses `json`; nil when it is not in the plain subset.
    init?(parsing json: Data) {
        let bytes = [UInt8](json)
        let parsed = bytes.withUnsafeBufferPointer { bytes in
            var parser = Parser(bytes: bytes)
            return parser.parseDocument()
        }
        guard let nodes = parsed else { return nil }
        self.bytes = bytes
        self.nodes = nodes
    }

    /// The index of the value of the member of the object at `object` whose key is `name`, or
    /// nil when the object has no such member.
    func member(named name: String, in object: Int) -> Int? {
        var name = name
        return name.withUTF8 { name in
            bytes.withUnsafeBufferPointer { bytes in
                nodes.withUnsafeBufferPointer { nodes in
                    var key = object + 1
                    for _ in 0..<nodes[object].integer {
                        let node = nodes[key]
                        if node.end - node.start == name.count,
                           name.isEmpty || memcmp(name.baseAddress!, bytes.baseAddress! + node.start, name.count) == 0 {
                            return key + 1
                        }
                        key = nodes[key + 1].next
                    }
                    return nil
                }
            }
        }
    }

    /// The string node at `index`, as a Swift string.
    func string(at index: Int) -> String {
        let node = nodes[index]
        return String(decoding: bytes[node.start..<node.end], as: UTF8.self)
    }

    /// Reads the nodes of a text.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var cursor = 0
        var nodes: [Node] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            nodes.reserveCapacity(64)
        }

        /// The nodes of the whole text, or nil when it is not in the subset.
        mutating func parseDocument() -> [Node]? {
            guard parseValue(depth: 0) else { return nil }
            skipWhitespace()
            return cursor == bytes.count ? nodes : nil
        }

        private static let quote = UInt8(ascii: "\"")

        private mutating func skipWhitespace() {
            while cursor < bytes.count {
                switch bytes[cursor] {
                case 0x20, 0x09, 0x0A, 0x0D: cursor += 1
                default: return
                }
            }
        }

        /// Skips whitespace and reads `byte`; false when another byte comes.
        private mutating func expect(_ byte: UInt8) -> Bool {
            expect(byte, or: byte) != nil
        }

        /// Skips whitespace and reads `first` or `second`; returns the one read, or nil when
        /// another byte comes.
        private mutating func expect(_ first: UInt8, or second: UInt8) -> UInt8? {
            skipWhitespace()
            guard cursor < bytes.count, bytes[cursor] == first || bytes[cursor] == second else { return nil }
            cursor += 1
            return bytes[cursor - 1]
        }

        private mutating func parseValue(depth: Int) -> Bool {
            skipWhitespace()
            guard cursor < bytes.count else { return false }
            switch bytes[cursor] {
            case UInt8(ascii: "{"): return parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return parseArray(depth: depth + 1)
            case Self.quote: return parseString()
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return parseInteger()
            case UInt8(ascii: "t"): return parseLiteral("true", .boolean, 1)
            case UInt8(ascii: "f"): return parseLiteral("false", .boolean, 0)
            case UInt8(ascii: "n"): return parseLiteral("null", .null, 0)
            default: return false
            }
        }

        private mutating func parseObject(depth: Int) -> Bool {
            guard depth <= PlainJSON.maximumDepth else { return false }
            let index = nodes.count
            nodes.append(Node(kind: .object))
            cursor += 1
            var keys: [Int] = []
            skipWhitespace()
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "}") {
                cursor += 1
            } else {
                repeat {
                    skipWhitespace()
                    guard cursor < bytes.count, bytes[cursor] == Self.quote else { return false }
                    keys.append(nodes.count)
                    guard parseString(), expect(UInt8(ascii: ":")),
                          parseValue(depth: depth)
                    else { return false }
                    guard let separator = expect(UInt8(ascii: ","), or: UInt8(ascii: "}")) else { return false }
                    if separator == UInt8(ascii: "}") { break }
                } while true
            }
            guard !hasRepeatedKey(keys) else { return false }
            nodes[index].integer = Int64(keys.count)
            nodes[index].next = nodes.count
            return true
        }

        private func hasRepeatedKey(_ keys: [Int]) -> Bool {
            for (position, first) in keys.enumerated() {
                let a = nodes[first]
                for second in keys[(position + 1)...] {
                    let b = nodes[second]
                    if a.end - a.start == b.end - b.start,
                       a.end == a.start || memcmp(bytes.baseAddress! + a.start, bytes.baseAddress! + b.start, a.end - a.start) == 0 {
                        return true
                    }
                }
            }
            return false
        }

        private mutating func parseArray(depth: Int) -> Bool {
            guard depth <= PlainJSON.maximumDepth else { return false }
            let index = nodes.count
            nodes.append(Node(kind: .array))
            cursor += 1
            var count: Int64 = 0
            skipWhitespace()
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "]") {
                cursor += 1
            } else {
                repeat {
                    guard parseValue(depth: depth) else { return false }
                    count += 1
                    guard let separator = expect(UInt8(ascii: ","), or: UInt8(ascii: "]")) else { return false }
                    if separator == UInt8(ascii: "]") { break }
                } while true
            }
            nodes[index].integer = count
            nodes[index].next = nodes.count
            return true
        }

        private mutating func parseString() -> Bool {
            let start = cursor + 1
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == Self.quote { break }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return false }
                end += 1
            }
            guard end < bytes.count else { return false }
            cursor = end + 1
            nodes.append(Node(kind: .string, start: start, end: end, next: nodes.count + 1))
            return true
        }

        private mutating func parseInteger() -> Bool {
            let start = cursor
            var value: Int64 = 0
            while cursor < bytes.count, case UInt8(ascii: "0")...UInt8(ascii: "9") = bytes[cursor] {
                // Eighteen digits at most, so the value stays below 10¹⁸ and never overflows.
                guard cursor - start < 18 else { return false }
                value = value * 10 + Int64(bytes[cursor] - UInt8(ascii: "0"))
                cursor += 1
            }
            if bytes[start] == UInt8(ascii: "0"), cursor - start > 1 { return false }
            if cursor < bytes.count {
                switch bytes[cursor] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return false
                default: break
                }
            }
            nodes.append(Node(kind: .integer, integer: value, next: nodes.count + 1))
            return true
        }

        private mutating func parseLiteral(_ literal: StaticString, _ kind: Kind, _ value: Int64) -> Bool {
            let length = literal.utf8CodeUnitCount
            guard bytes.count - cursor >= length,
                  memcmp(bytes.baseAddress! + cursor, literal.utf8Start, length) == 0
            else { return false }
            cursor += length
            nodes.append(Node(kind: kind, integer: value, next: nodes.count + 1))
            return true
        }
    }
}
