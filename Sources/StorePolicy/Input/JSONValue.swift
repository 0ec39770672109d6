/// A parsed JSON value, as ``JSONValueParser`` reads it: numbers keep their text, so that
/// whole numbers of any size and fractions can be told apart exactly; objects keep their
/// fields in order, each name once.
indirect enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean(Bool)
    /// A number, as written.
    case number(String)
    /// A string.
    case string(String)
    /// A list.
    case array([JSONValue])
    /// An object's fields, in the order written.
    case object([(name: String, value: JSONValue)])

    /// The value in words for an error message: `1.5`, `true`, `null`, `a string`, `a list`,
    /// `an object`.
    var shortDescription: String {
        switch self {
        case .null: "null"
        case .boolean(let flag): flag ? "true" : "false"
        case .number(let text): text.count <= 32 ? text : String(text.prefix(32)) + "…"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
