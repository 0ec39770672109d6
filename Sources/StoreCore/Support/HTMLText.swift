/// Text written into an HTML page, the one way the pages StoreRules draws (a storefront plan,
/// an experiment report) escape what they show.
public enum HTMLText {
    /// `text` with the characters HTML gives a meaning (`&`, `<`, `>`, `"`, `'`) written as
    /// entities, safe inside an element and inside a quoted attribute.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
