extension LuaValue: Codable {
    /// Reads a JSON-like value: null, booleans, integers, numbers, strings, arrays (as
    /// sequences) and objects (as tables keyed by strings).
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var hash: [LuaValue: LuaValue] = [:]
            for key in keyed.allKeys {
                hash[.string(key.stringValue)] = try keyed.decode(LuaValue.self, forKey: key)
            }
            self = .table(LuaTable(hash: hash))
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var array: [LuaValue] = []
            while !list.isAtEnd { array.append(try list.decode(LuaValue.self)) }
            self = .table(LuaTable(array: array))
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .nil
        } else if let flag = try? single.decode(Bool.self) {
            self = .boolean(flag)
        } else if let integer = try? single.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Writes the value as JSON-like data: a table whose keys are 1…n is an array; any other
    /// table is an object whose keys are written as strings.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .nil:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .boolean(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .integer(let integer):
            var single = encoder.singleValueContainer()
            try single.encode(integer)
        case .number(let number):
            var single = encoder.singleValueContainer()
            try single.encode(number)
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .table(let table):
            if table.hash.isEmpty && !table.array.isEmpty {
                var list = encoder.unkeyedContainer()
                for item in table.array { try list.encode(item) }
            } else {
                var object = encoder.container(keyedBy: AnyKey.self)
                for (position, item) in table.array.enumerated() {
                    try object.encode(item, forKey: AnyKey(stringValue: String(position + 1)))
                }
                for (key, item) in table.hash.sorted(by: { $0.key.sortKey < $1.key.sortKey }) {
                    try object.encode(item, forKey: AnyKey(stringValue: key.sortKey))
                }
            }
        }
    }

    /// The key as text, for JSON object keys and stable ordering.
    var sortKey: String {
        switch self {
        case .nil: return "nil"
        case .boolean(let flag): return flag ? "true" : "false"
        case .integer(let integer): return String(integer)
        case .number(let number): return String(number)
        case .string(let text): return text
        case .table: return "table"
        }
    }
}

/// A coding key for arbitrary string keys.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
