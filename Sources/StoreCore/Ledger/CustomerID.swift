/// The rule every customer id follows, checked in this one place for the library, the
/// service's routes and JSON lines, and the command line.
///
/// A customer id is 1 to 128 bytes of UTF-8 with no control character (U+0000–U+001F,
/// U+007F–U+009F). A Swift `String` is always valid UTF-8; text from bytes that are not is
/// refused before it becomes one (the service's percent-decoding does so).
public enum CustomerID {
    /// The most bytes a customer id may have.
    public static let maximumBytes = 128

    /// The rule as one line, as errors quote it.
    public static let rule = "a customer id is 1 to \(maximumBytes) bytes of UTF-8 without control characters"

    /// `id`, when it follows the rule.
    ///
    /// - Throws: ``LedgerError/invalidCustomerID(_:)`` naming what is wrong.
    @discardableResult
    public static func validated(_ id: String) throws(LedgerError) -> String {
        if let problem = problem(with: id) {
            throw .invalidCustomerID(problem)
        }
        return id
    }

    /// What is wrong with `id`, or nil when it follows the rule.
    public static func problem(with id: String) -> String? {
        let bytes = id.utf8.count
        if bytes == 0 { return "the customer id is empty; \(rule)" }
        if bytes > maximumBytes { return "the customer id has \(bytes) bytes; \(rule)" }
        if let control = id.unicodeScalars.first(where: \.isControlCharacter) {
            let code = String(control.value, radix: 16, uppercase: true)
            return "the customer id holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code); \(rule)"
        }
        return nil
    }
}
