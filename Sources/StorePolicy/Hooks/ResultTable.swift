import LuaBridge
import TextMatching

/// A table a hook returned, read field by field: each field's type checked, a field the hook's
/// contract does not name refused with the nearest name it does, so a typo is the hook's
/// failure rather than a value silently left out.
struct ResultTable {
    private let fields: [String: LuaValue]

    /// Reads `value` as a table of the named `known` fields.
    ///
    /// - Throws: ``LuaBridge/LuaError`` of kind `badResult` when it is no table, or has a key
    ///   that is not one of `known`.
    init(_ value: LuaValue, known: [String], expected: String) throws(LuaError) {
        guard case .table(let table) = value else {
            throw LuaError(kind: .badResult, message: "expected \(expected), got \(Self.describe(value))")
        }
        guard table.array.isEmpty else {
            throw LuaError(kind: .badResult, message: "expected \(expected), got a list")
        }
        var fields: [String: LuaValue] = [:]
        for (key, field) in table.hash {
            guard case .string(let name) = key, known.contains(name) else {
                let name: String
                if case .string(let text) = key { name = text } else { name = Self.describe(key) }
                let hint = NearestName.nearest(to: name, in: known).map { "; did you mean '\($0)'?" } ?? "; known: " + known.joined(separator: ", ")
                throw LuaError(kind: .badResult, message: "unknown field '\(name)'\(hint)")
            }
            fields[name] = field
        }
        self.fields = fields
    }

    /// A boolean field; nil when absent and `required` is false.
    func boolean(_ name: String, required: Bool) throws(LuaError) -> Bool? {
        switch fields[name] {
        case nil, .nil?:
            if required { throw Self.missing(name, "a boolean") }
            return nil
        case .boolean(let flag)?: return flag
        case let other?: throw Self.wrong(name, "a boolean", other)
        }
    }

    /// An integer field (a float with no fraction counts); nil when absent and not `required`.
    func integer(_ name: String, required: Bool) throws(LuaError) -> Int? {
        switch fields[name] {
        case nil, .nil?:
            if required { throw Self.missing(name, "an integer") }
            return nil
        case .integer(let number)?: return Int(number)
        case .number(let number)? where number.rounded() == number && abs(number) < 1e15: return Int(number)
        case let other?: throw Self.wrong(name, "an integer", other)
        }
    }

    /// A string field; nil when absent and not `required`.
    func string(_ name: String, required: Bool, what: String = "a string") throws(LuaError) -> String? {
        switch fields[name] {
        case nil, .nil?:
            if required { throw Self.missing(name, what) }
            return nil
        case .string(let text)?: return text
        case let other?: throw Self.wrong(name, what, other)
        }
    }

    /// A string field that must be one of `words`.
    func word<Word: RawRepresentable & CaseIterable>(_ name: String, _ type: Word.Type, required: Bool) throws(LuaError) -> Word?
    where Word.RawValue == String {
        let words = Word.allCases.map(\.rawValue)
        let what = words.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let text = try string(name, required: required, what: "one of \(what)") else { return nil }
        guard let word = Word(rawValue: text) else {
            throw LuaError(kind: .badResult, message: "\(name): \"\(text)\" is not one of \(what)")
        }
        return word
    }

    static func missing(_ name: String, _ what: String) -> LuaError {
        LuaError(kind: .badResult, message: "\(name): missing; expected \(what)")
    }

    static func wrong(_ name: String, _ what: String, _ value: LuaValue) -> LuaError {
        LuaError(kind: .badResult, message: "\(name): expected \(what), got \(describe(value))")
    }

    /// A value as an error message shows it.
    static func describe(_ value: LuaValue) -> String {
        switch value {
        case .nil: "nil"
        case .boolean(let flag): flag ? "true" : "false"
        case .integer(let number): "\(number)"
        case .number(let number): "\(number)"
        case .string(let text): "\"\(text)\""
        case .table: "a table"
        }
    }
}
