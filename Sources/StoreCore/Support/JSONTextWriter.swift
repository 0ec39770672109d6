/// Writes JSON text straight into bytes, for answers a server sends many times a second.
///
/// The text is the same as `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`
/// for the same value: compact, strings escaped the same way, and an object's members in the
/// order its writer is given them, which ``JSONWritable`` types give sorted by key. A nil
/// optional member is left out, as synthesized `Codable` conformances leave it out.
public struct JSONTextWriter: Sendable {
    /// The text written so far, as UTF-8.
    public var bytes: [UInt8] { buffer }
    @usableFromInline var buffer: [UInt8] = []

    /// An empty writer, with room for `capacity` bytes.
    public init(capacity: Int = 1024) {
        buffer.reserveCapacity(capacity)
    }

    /// Writes `value`'s JSON.
    @inlinable
    public mutating func write(_ value: some JSONWritable) {
        value.writeJSON(to: &self)
    }

    /// Writes a JSON string.
    public mutating func write(_ string: String) {
        var text = string
        text.withUTF8 { utf8 in
            buffer.append(UInt8(ascii: "\""))
            var pending = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[pending..<index]))
                appendEscaped(byte)
                pending = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[pending...]))
            buffer.append(UInt8(ascii: "\""))
        }
    }

    /// Writes a JSON number.
    public mutating func write(_ number: Int) {
        buffer.append(contentsOf: String(number).utf8)
    }

    /// Writes `true` or `false`.
    public mutating func write(_ bool: Bool) {
        buffer.append(contentsOf: bool ? "true".utf8 : "false".utf8)
    }

    /// Writes an array of `elements`, each written by `element`.
    @inlinable
    public mutating func writeArray<Elements: Sequence>(_ elements: Elements, _ element: (inout JSONTextWriter, Elements.Element) -> Void) {
        buffer.append(UInt8(ascii: "["))
        var first = true
        for item in elements {
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            element(&self, item)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// Writes an array of `elements`.
    @inlinable
    public mutating func writeArray(_ elements: [some JSONWritable]) {
        writeArray(elements) { writer, element in element.writeJSON(to: &writer) }
    }

    /// Writes an array of strings.
    public mutating func writeArray(_ strings: [String]) {
        writeArray(strings) { writer, string in writer.write(string) }
    }

    /// Writes an object whose members `body` writes through its ``JSONObjectWriter``, in the
    /// order it writes them (sorted by key, to match `JSONEncoder`'s `.sortedKeys`).
    @inlinable
    public mutating func writeObject(_ body: (inout JSONObjectWriter) -> Void) {
        var object = JSONObjectWriter(writer: self)
        buffer = []
        object.writer.buffer.append(UInt8(ascii: "{"))
        body(&object)
        object.writer.buffer.append(UInt8(ascii: "}"))
        self = object.writer
    }

    /// Appends a member's key, quoted, and the colon after it.
    @usableFromInline
    mutating func appendKey(_ key: StaticString) {
        buffer.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: "\":".utf8)
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            buffer.append(contentsOf: "u00".utf8)
            buffer.append(hex[Int(byte >> 4)])
            buffer.append(hex[Int(byte & 0x0F)])
        }
    }
}

/// The members of one JSON object being written by ``JSONTextWriter/writeObject(_:)``.
public struct JSONObjectWriter {
    @usableFromInline var writer: JSONTextWriter
    @usableFromInline var isEmpty = true

    @usableFromInline
    init(writer: JSONTextWriter) {
        self.writer = writer
    }

    /// Writes the member `key`, its value written by `value`.
    @inlinable
    public mutating func member(_ key: StaticString, _ value: (inout JSONTextWriter) -> Void) {
        if !isEmpty { writer.buffer.append(UInt8(ascii: ",")) }
        isEmpty = false
        writer.appendKey(key)
        value(&writer)
    }

    /// Writes a member whose key is not known until it is written (a dictionary's), escaped as
    /// any string is, its value written by `value`.
    public mutating func member(named key: String, _ value: (inout JSONTextWriter) -> Void) {
        if !isEmpty { writer.buffer.append(UInt8(ascii: ",")) }
        isEmpty = false
        writer.write(key)
        writer.buffer.append(UInt8(ascii: ":"))
        value(&writer)
    }

    /// Writes the member `key` with a string.
    public mutating func member(_ key: StaticString, _ string: String) {
        member(key) { $0.write(string) }
    }

    /// Writes the member `key` with a string, or leaves it out when `string` is nil.
    public mutating func member(_ key: StaticString, _ string: String?) {
        if let string { member(key) { $0.write(string) } }
    }

    /// Writes the member `key` with a number.
    public mutating func member(_ key: StaticString, _ number: Int) {
        member(key) { $0.write(number) }
    }

    /// Writes the member `key` with a number, or leaves it out when `number` is nil.
    public mutating func member(_ key: StaticString, _ number: Int?) {
        if let number { member(key) { $0.write(number) } }
    }

    /// Writes the member `key` with `true` or `false`.
    public mutating func member(_ key: StaticString, _ bool: Bool) {
        member(key) { $0.write(bool) }
    }

    /// Writes the member `key` with `true` or `false`, or leaves it out when `bool` is nil.
    public mutating func member(_ key: StaticString, _ bool: Bool?) {
        if let bool { member(key) { $0.write(bool) } }
    }

    /// Writes the member `key` with `value`'s JSON.
    @inlinable
    public mutating func member(_ key: StaticString, _ value: some JSONWritable) {
        member(key) { value.writeJSON(to: &$0) }
    }

    /// Writes the member `key` with an array of `values`.
    @inlinable
    public mutating func member(_ key: StaticString, _ values: [some JSONWritable]) {
        member(key) { $0.writeArray(values) }
    }

    /// Writes the member `key` with an array of strings.
    public mutating func member(_ key: StaticString, _ strings: [String]) {
        member(key) { $0.writeArray(strings) }
    }

    /// Writes the member `key` with `json`, a value this writer or another wrote before, as it is:
    /// for a value several documents carry, written once.
    public mutating func member(_ key: StaticString, written json: [UInt8]) {
        member(key) { $0.buffer.append(contentsOf: json) }
    }
}

/// A value that writes its own JSON through a ``JSONTextWriter``: the same text `JSONEncoder`
/// writes for its `Encodable` conformance with sorted keys and unescaped slashes, without the
/// cost of encoding through containers.
public protocol JSONWritable {
    /// Writes the value's JSON.
    func writeJSON(to writer: inout JSONTextWriter)
}

extension JSONWritable where Self: RawRepresentable, RawValue == String {
    /// A string enum writes its raw value, as its `Codable` conformance does.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.write(rawValue)
    }
}
