import CLua

/// The value stack of a Lua state, as the host pushes arguments and reads results.
///
/// A `LuaStack` is only valid inside the closures ``LuaState`` hands it to, on that
/// state's thread. Reads are raw: they never run metamethods of policy values.
public struct LuaStack {
    @usableFromInline let state: OpaquePointer

    @usableFromInline init(_ state: OpaquePointer) {
        self.state = state
    }

    /// The `lua_State` this stack belongs to, for C code written against the Lua C API that
    /// keeps its stack discipline.
    public var luaState: OpaquePointer { state }

    /// The index of the top value (the number of values on the stack).
    @inlinable
    public var top: Int32 { lua_gettop(state) }

    /// Drops values down to `index`.
    @inlinable
    public func setTop(_ index: Int32) { lua_settop(state, index) }

    /// Makes room for `count` more values; false when the stack cannot grow.
    @inlinable
    public func reserve(_ count: Int32) -> Bool { lua_checkstack(state, count) != 0 }

    // MARK: Pushing

    /// Pushes `nil`.
    @inlinable
    public func pushNil() { lua_pushnil(state) }
    /// Pushes a boolean.
    @inlinable
    public func push(_ value: Bool) { lua_pushboolean(state, value ? 1 : 0) }
    /// Pushes an integer.
    @inlinable
    public func push(_ value: Int) { lua_pushinteger(state, lua_Integer(value)) }
    /// Pushes a 64-bit integer.
    @inlinable
    public func push(_ value: Int64) { lua_pushinteger(state, lua_Integer(value)) }
    /// Pushes a float.
    @inlinable
    public func push(_ value: Double) { lua_pushnumber(state, value) }
    /// Pushes a string.
    @inlinable
    public func push(_ value: String) {
        let pushed: Void? = value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(state, $0.baseAddress, $0.count) }
        }
        if pushed == nil {
            var copy = value
            copy.withUTF8 { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { lua_pushlstring(state, $0.baseAddress, $0.count) }
            }
        }
    }
    /// Pushes a string literal without building a Swift string.
    ///
    /// A literal's text has a fixed address, which Lua's string cache (`luaS_new`) uses to
    /// skip hashing and interning the same key again: the cheapest way to push field names.
    @inlinable
    public func push(literal: StaticString) {
        if literal.hasPointerRepresentation {
            literal.utf8Start.withMemoryRebound(to: CChar.self, capacity: literal.utf8CodeUnitCount + 1) {
                _ = lua_pushstring(state, $0)
            }
        } else {
            literal.withUTF8Buffer { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { lua_pushlstring(state, $0.baseAddress, $0.count) }
            }
        }
    }
    /// Pushes a new table, with room for `arrayCount` items and `fieldCount` fields.
    @inlinable
    public func pushTable(arrayCount: Int = 0, fieldCount: Int = 0) {
        lua_createtable(state, Int32(clamping: arrayCount), Int32(clamping: fieldCount))
    }
    /// Pops the top value and puts it at `index`, replacing what was there.
    @inlinable
    public func replace(_ index: Int32) {
        lua_copy(state, -1, index)
        lua_settop(state, -2)
    }

    /// Pushes a copy of the value at `index`.
    @inlinable
    public func pushCopy(of index: Int32) { lua_pushvalue(state, index) }
    /// Pushes the value a registry reference holds.
    @inlinable
    public func push(_ reference: LuaReference) {
        lua_rawgeti(state, srlua_registryindex(), lua_Integer(reference.slot))
    }

    /// Where the Lua function `level` calls up the stack is running, as Lua prefixes its
    /// error messages (`policy.lua:12: `). Level 1 is the caller of the running host function;
    /// C functions between it and the Lua code (a read-only view's `__index`, say) are passed
    /// over, up to three of them. Empty when no Lua function is found.
    public func location(level: Int32) -> String {
        for candidate in level..<(level + 4) {
            luaL_where(state, candidate)
            defer { lua_settop(state, -2) }
            if let text = string(at: -1), !text.isEmpty { return text }
        }
        return ""
    }

    /// Gives the table at `table` the metatable `metatable` refers to.
    @inlinable
    public func setMetatable(_ metatable: LuaReference, of table: Int32) {
        let absolute = lua_absindex(state, table)
        push(metatable)
        lua_setmetatable(state, absolute)
    }

    /// Pops the top value and stores it as field `key` of the table at `table`.
    @inlinable
    public func setField(_ key: StaticString, of table: Int32) {
        push(literal: key)
        lua_rotate(state, -2, 1)
        lua_rawset(state, table < 0 ? table - 1 : table)
    }
    /// Pops the top value and stores it as field `key`, a name known only at run time, of the
    /// table at `table`.
    @inlinable
    public func setField(named key: String, of table: Int32) {
        push(key)
        lua_rotate(state, -2, 1)
        lua_rawset(state, table < 0 ? table - 1 : table)
    }
    /// Pops the top value and stores it at position `position` of the table at `table`.
    @inlinable
    public func setItem(_ position: Int, of table: Int32) {
        lua_rawseti(state, table, lua_Integer(position))
    }
    /// Pops a key and a value (value on top) and stores them in the table at `table`.
    @inlinable
    public func setPair(of table: Int32) {
        lua_rawset(state, table)
    }

    /// Pushes a ``LuaValue``, tables included.
    public func push(_ value: LuaValue) {
        switch value {
        case .nil: lua_pushnil(state)
        case .boolean(let flag): push(flag)
        case .integer(let number): push(number)
        case .number(let number): push(number)
        case .string(let text): push(text)
        case .table(let table):
            _ = reserve(3)
            pushTable(arrayCount: table.array.count, fieldCount: table.hash.count)
            let index = top
            for (position, item) in table.array.enumerated() {
                push(item)
                setItem(position + 1, of: index)
            }
            for (key, item) in table.hash where key.canBeATableKey {
                push(key)
                push(item)
                lua_rawset(state, index)
            }
        }
    }

    // MARK: Reading

    /// The Lua type of the value at `index`.
    @inlinable
    public func type(at index: Int32) -> LuaType {
        LuaType(rawValue: lua_type(state, index)) ?? .none
    }

    /// The boolean at `index`, or nil when the value is not a boolean.
    @inlinable
    public func bool(at index: Int32) -> Bool? {
        lua_type(state, index) == LUA_TBOOLEAN ? lua_toboolean(state, index) != 0 : nil
    }

    /// The integer at `index`: an integer, or a float with an exact integer value.
    @inlinable
    public func integer(at index: Int32) -> Int64? {
        guard lua_type(state, index) == LUA_TNUMBER else { return nil }
        var exact: Int32 = 0
        let value = lua_tointegerx(state, index, &exact)
        return exact != 0 ? Int64(value) : nil
    }

    /// The number at `index`, or nil when the value is not a number.
    @inlinable
    public func number(at index: Int32) -> Double? {
        lua_type(state, index) == LUA_TNUMBER ? lua_tonumberx(state, index, nil) : nil
    }

    /// The string at `index`, or nil when the value is not a string (numbers are not converted).
    @inlinable
    public func string(at index: Int32) -> String? {
        guard lua_type(state, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let bytes = lua_tolstring(state, index, &length) else { return nil }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Pushes field `key` of the table at `table` (raw access) and returns its type.
    @inlinable
    @discardableResult
    public func pushField(_ key: StaticString, of table: Int32) -> LuaType {
        let absolute = lua_absindex(state, table)
        push(literal: key)
        return LuaType(rawValue: lua_rawget(state, absolute)) ?? .none
    }

    /// Pushes field `key`, a name known only at run time, of the table at `table` (raw
    /// access) and returns its type.
    @inlinable
    @discardableResult
    public func pushField(named key: String, of table: Int32) -> LuaType {
        let absolute = lua_absindex(state, table)
        push(key)
        return LuaType(rawValue: lua_rawget(state, absolute)) ?? .none
    }

    /// Pushes field `key` of a host-built read-only table at `table`, following its `__index`
    /// chain, and returns its type. Only for tables whose metatables the host made.
    @inlinable
    @discardableResult
    public func pushIndexedField(_ key: String, of table: Int32) -> LuaType {
        let absolute = lua_absindex(state, table)
        push(key)
        return LuaType(rawValue: lua_gettable(state, absolute)) ?? .none
    }

    /// When the value at `index` is a read-only view made by the host (such as `ctx.catalog`
    /// or one of its tables), pushes the table it shows and returns true; otherwise pushes
    /// nothing and returns false. Results are read raw, so views are read through their target.
    public func pushReadOnlyTarget(of index: Int32) -> Bool {
        let absolute = lua_absindex(state, index)
        guard lua_type(state, absolute) == LUA_TTABLE, lua_getmetatable(state, absolute) != 0 else { return false }
        let metatable = top
        if pushField("__proxied", of: metatable) == .table {
            lua_pushvalue(state, absolute)
            if lua_rawget(state, -2) == LUA_TTABLE {
                replace(metatable)
                setTop(metatable)
                return true
            }
        }
        setTop(metatable - 1)
        return false
    }

    /// Pushes item `position` of the table at `table` (raw access) and returns its type.
    @inlinable
    @discardableResult
    public func pushItem(_ position: Int, of table: Int32) -> LuaType {
        LuaType(rawValue: lua_rawgeti(state, table, lua_Integer(position))) ?? .none
    }

    /// The raw length of the table or string at `index`.
    @inlinable
    public func length(at index: Int32) -> Int { Int(lua_rawlen(state, index)) }

    /// Calls `body` with the stack indices of each key and value of the table at `index`,
    /// in Lua's traversal order. The body must leave the stack as it found it.
    public func forEachPair(of index: Int32, _ body: (_ key: Int32, _ value: Int32) throws -> Void) rethrows {
        let table = lua_absindex(state, index)
        lua_pushnil(state)
        while lua_next(state, table) != 0 {
            let valueIndex = lua_gettop(state)
            try body(valueIndex - 1, valueIndex)
            lua_settop(state, valueIndex - 1)
        }
    }

    /// Copies the value at `index` into a ``LuaValue``.
    ///
    /// Functions, userdata and threads cannot leave the state and are a ``LuaError`` of kind
    /// `badResult`, as are tables that contain themselves or nest deeper than `maxDepth`.
    public func value(at index: Int32, maxDepth: Int = 64) throws(LuaError) -> LuaValue {
        var visiting: [UnsafeRawPointer] = []
        return try copyValue(at: lua_absindex(state, index), depth: maxDepth, visiting: &visiting)
    }

    private func copyValue(at index: Int32, depth: Int, visiting: inout [UnsafeRawPointer]) throws(LuaError) -> LuaValue {
        switch type(at: index) {
        case .none, .nil: return .nil
        case .boolean: return .boolean(lua_toboolean(state, index) != 0)
        case .number:
            if lua_isinteger(state, index) != 0 { return .integer(Int64(lua_tointegerx(state, index, nil))) }
            return .number(lua_tonumberx(state, index, nil))
        case .string: return .string(string(at: index) ?? "")
        case .table:
            if pushReadOnlyTarget(of: index) {
                defer { setTop(top - 1) }
                return try copyValue(at: top, depth: depth, visiting: &visiting)
            }
            return .table(try copyTable(at: index, depth: depth, visiting: &visiting))
        case .function, .userdata, .lightUserdata, .thread:
            throw LuaError(kind: .badResult, message: "a \(type(at: index).name) cannot be returned to the host")
        }
    }

    /// Copies a table: keys 1…n (its raw length) into the array part, the rest into the hash.
    private func copyTable(at index: Int32, depth: Int, visiting: inout [UnsafeRawPointer]) throws(LuaError) -> LuaTable {
        guard depth > 0 else {
            throw LuaError(kind: .badResult, message: "table nests too deeply")
        }
        guard let identity = lua_topointer(state, index), !visiting.contains(identity) else {
            throw LuaError(kind: .badResult, message: "table contains itself")
        }
        guard reserve(3) else { throw LuaError(kind: .badResult, message: "table nests too deeply") }
        visiting.append(identity)
        defer { visiting.removeLast() }
        let count = length(at: index)
        var table = LuaTable(array: count > 0 ? Array(repeating: .nil, count: count) : [])
        var failure: LuaError?
        forEachPair(of: index) { key, value in
            guard failure == nil else { return }
            do throws(LuaError) {
                let copiedValue = try copyValue(at: value, depth: depth - 1, visiting: &visiting)
                if lua_isinteger(state, key) != 0 {
                    let position = Int(lua_tointegerx(state, key, nil))
                    if position >= 1 && position <= count {
                        table.array[position - 1] = copiedValue
                        return
                    }
                }
                table.hash[try copyValue(at: key, depth: depth - 1, visiting: &visiting)] = copiedValue
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if table.array.contains(.nil) {
            for (offset, item) in table.array.enumerated() where item != .nil {
                table.hash[.integer(Int64(offset + 1))] = item
            }
            table.array = []
        }
        return table
    }
}

/// The type of a Lua value, as `lua_type` reports it.
public enum LuaType: Int32, Sendable {
    /// No value at that index.
    case none = -1
    /// `nil`.
    case `nil` = 0
    /// A boolean.
    case boolean = 1
    /// A light userdata.
    case lightUserdata = 2
    /// A number, integer or float.
    case number = 3
    /// A string.
    case string = 4
    /// A table.
    case table = 5
    /// A function.
    case function = 6
    /// A full userdata.
    case userdata = 7
    /// A coroutine.
    case thread = 8

    /// The name Lua's `type()` gives the type.
    public var name: String {
        switch self {
        case .none: return "no value"
        case .nil: return "nil"
        case .boolean: return "boolean"
        case .lightUserdata, .userdata: return "userdata"
        case .number: return "number"
        case .string: return "string"
        case .table: return "table"
        case .function: return "function"
        case .thread: return "thread"
        }
    }
}

/// A value kept in a state's registry, such as a compiled hook function.
public struct LuaReference: Sendable, Hashable {
    @usableFromInline let slot: Int32

    /// The registry index that holds the value, for C code that reads it with `lua_rawgeti`.
    public var registrySlot: Int32 { slot }

    @usableFromInline init(slot: Int32) {
        self.slot = slot
    }
}
