/// A Lua value copied out of a Lua state, safe to keep and to send across threads.
///
/// Tables are deep-copied: a `LuaValue` never refers back into the state it came from.
public enum LuaValue: Sendable, Hashable {
    /// `nil`.
    case `nil`
    /// `true` or `false`.
    case boolean(Bool)
    /// A Lua integer (64 bits).
    case integer(Int64)
    /// A Lua float.
    case number(Double)
    /// A Lua string; Lua strings are bytes, read here as UTF-8.
    case string(String)
    /// A Lua table, as its key–value pairs.
    case table(LuaTable)
}

/// The contents of a Lua table: an array part (keys 1…n) and the remaining pairs.
public struct LuaTable: Sendable, Hashable {
    /// Values at keys 1, 2, … n with no gap.
    public var array: [LuaValue]
    /// Every other pair, keyed by a non-nil value.
    public var hash: [LuaValue: LuaValue]

    /// Creates a table from its array part and its other pairs.
    public init(array: [LuaValue] = [], hash: [LuaValue: LuaValue] = [:]) {
        self.array = array
        self.hash = hash
    }
}

extension LuaValue {
    /// Whether Lua accepts the value as a table key: anything but `nil` and NaN, which
    /// `rawset` refuses with an error. Pushing a table skips keys that are neither.
    public var canBeATableKey: Bool {
        switch self {
        case .nil: false
        case .number(let number): !number.isNaN
        default: true
        }
    }
}
