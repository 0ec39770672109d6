/// How input errors write a coding path: `customer.balances.credit`, `steps[3].quantity`,
/// `attributes["two words"]`.
package enum JSONPath {
    /// The path of `codingPath`; empty for the top level.
    package static func render(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else if isPlain(key.stringValue) {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            } else {
                text += "[\(quoted(key.stringValue))]"
            }
        }
        return text
    }

    /// `text` in double quotes, with quotes, backslashes and control characters escaped.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Whether `key` reads well after a dot: ASCII letters, digits, `_` and `-`.
    private static func isPlain(_ key: String) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }
}

private extension String {
    /// The text with zeros in front, to at least `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
