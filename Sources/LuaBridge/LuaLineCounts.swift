import CLua

/// How many times each line of one chunk ran, and optionally in which order, recorded by a
/// line hook in every state that counts into it (``LuaState/countLines(into:)``): what test
/// coverage and the explanation of one decision are made of.
///
/// The counts are plain memory the hook writes without a lock, so the states counting into one
/// `LuaLineCounts` must run one at a time (as a test run's states do, on one thread).
public final class LuaLineCounts: @unchecked Sendable {
    /// The chunk counted, as it was loaded (`policy.lua`).
    public let chunkName: String
    let source: UnsafeMutablePointer<CChar>
    let counts: UnsafeMutablePointer<UInt32>
    let size: Int
    let order: UnsafeMutablePointer<srlua_line_order>?

    /// Counts for the chunk `chunkName`, whose lines run from 1 to `lineCount`, keeping the
    /// first `orderCapacity` lines that run in the order they ran (none by default).
    public init(chunkName: String, lineCount: Int, keepingOrderOf orderCapacity: Int = 0) {
        self.chunkName = chunkName
        size = max(1, lineCount + 1)
        counts = .allocate(capacity: size)
        counts.initialize(repeating: 0, count: size)
        if orderCapacity > 0 {
            let lines = UnsafeMutablePointer<Int32>.allocate(capacity: orderCapacity)
            lines.initialize(repeating: 0, count: orderCapacity)
            let order = UnsafeMutablePointer<srlua_line_order>.allocate(capacity: 1)
            order.initialize(to: srlua_line_order(lines: lines, capacity: Int32(clamping: orderCapacity), length: 0, dropped: 0))
            self.order = order
        } else {
            order = nil
        }
        let text = Array(("@" + chunkName).utf8CString)
        source = .allocate(capacity: text.count)
        source.initialize(from: text, count: text.count)
    }

    deinit {
        counts.deallocate()
        source.deallocate()
        if let order {
            order.pointee.lines.deallocate()
            order.deallocate()
        }
    }

    /// The lines in the order they ran, as far as they were kept, and how many ran after that.
    public var linesInOrder: (lines: [Int], leftOut: Int) {
        guard let order else { return ([], 0) }
        let lines = (0..<Int(order.pointee.length)).map { Int(order.pointee.lines[$0]) }
        return (lines, Int(order.pointee.dropped))
    }

    /// Forgets every line counted so far.
    public func reset() {
        counts.update(repeating: 0, count: size)
        order?.pointee.length = 0
        order?.pointee.dropped = 0
    }

    /// Every line that ran, with how many times.
    public var linesRun: [Int: Int] {
        var lines: [Int: Int] = [:]
        for line in 1..<size where counts[line] > 0 {
            lines[line] = Int(counts[line])
        }
        return lines
    }
}

extension LuaState {
    /// Counts, from the next call on, every line of `counts`' chunk that runs in this state.
    public func countLines(into counts: LuaLineCounts) {
        lineCounts = counts
        accounting.pointee.line_counts = counts.counts
        accounting.pointee.line_count_size = Int32(clamping: counts.size)
        accounting.pointee.covered_source = UnsafePointer(counts.source)
        accounting.pointee.line_order = counts.order
    }

    /// The names of the Lua function `function`'s parameters, in order (none for a C function).
    public func parameterNames(of function: LuaReference) -> [String] {
        withStack { stack in
            stack.push(function)
            var names: [String] = []
            var index: Int32 = 1
            while let name = lua_getlocal(handle, nil, index) {
                names.append(String(cString: name))
                index += 1
            }
            return names
        }
    }

    /// The lines of the chunk `chunkName` that hold code, as Lua's line information
    /// (`activelines`) gives them, of every function reachable from the value `root` refers
    /// to: the function itself, the values of a table, and their upvalues, however deep. A
    /// function made only when a call runs (an inline closure) is not reachable before it runs.
    public func codeLines(reachableFrom root: LuaReference, inChunk chunkName: String) -> Set<Int> {
        let source = "@" + chunkName
        var lines = Set<Int>()
        var seen = Set<UnsafeRawPointer>()
        withStack { stack in
            stack.push(root)
            collectCodeLines(at: stack.top, source: source, into: &lines, seen: &seen, depth: 0)
        }
        return lines
    }

    /// The lines of the function `function` itself that hold code (`activelines`), without the
    /// functions it makes or reaches.
    public func activeLines(of function: LuaReference) -> Set<Int> {
        withStack { stack in
            stack.push(function)
            guard lua_type(handle, -1) == LUA_TFUNCTION else { return [] }
            var info = lua_Debug()
            guard lua_getinfo(handle, ">L", &info) != 0 else { return [] }
            var lines = Set<Int>()
            insertActiveLines(into: &lines)
            return lines
        }
    }

    /// The first and last line of the function `function`, in the chunk it was loaded from.
    public func lineRange(of function: LuaReference) -> ClosedRange<Int>? {
        withStack { stack in
            stack.push(function)
            guard lua_type(handle, -1) == LUA_TFUNCTION else { return nil }
            var info = lua_Debug()
            guard lua_getinfo(handle, ">S", &info) != 0, info.linedefined > 0, info.lastlinedefined >= info.linedefined else {
                return nil
            }
            return Int(info.linedefined)...Int(info.lastlinedefined)
        }
    }

    private func collectCodeLines(at index: Int32, source: String, into lines: inout Set<Int>, seen: inout Set<UnsafeRawPointer>, depth: Int) {
        guard depth < 32, lua_checkstack(handle, 4) != 0 else { return }
        let type = lua_type(handle, index)
        guard type == LUA_TFUNCTION || type == LUA_TTABLE, let pointer = lua_topointer(handle, index) else { return }
        guard seen.insert(pointer).inserted else { return }
        if type == LUA_TTABLE {
            lua_pushnil(handle)
            while lua_next(handle, index) != 0 {
                collectCodeLines(at: lua_gettop(handle), source: source, into: &lines, seen: &seen, depth: depth + 1)
                srlua_pop(handle, 1)
            }
            return
        }
        lua_pushvalue(handle, index)
        var info = lua_Debug()
        if lua_getinfo(handle, ">SL", &info) != 0 {
            if let found = info.source, String(cString: found) == source {
                insertActiveLines(into: &lines)
            }
            srlua_pop(handle, 1)
        }
        var upvalue: Int32 = 1
        while lua_getupvalue(handle, index, upvalue) != nil {
            collectCodeLines(at: lua_gettop(handle), source: source, into: &lines, seen: &seen, depth: depth + 1)
            srlua_pop(handle, 1)
            upvalue += 1
        }
    }

    /// Adds the lines of the `activelines` table `lua_getinfo` left on the top of the stack
    /// (nil for a C function) to `lines`.
    private func insertActiveLines(into lines: inout Set<Int>) {
        guard lua_type(handle, -1) == LUA_TTABLE else { return }
        lua_pushnil(handle)
        while lua_next(handle, -2) != 0 {
            if lua_isinteger(handle, -2) != 0 { lines.insert(Int(lua_tointegerx(handle, -2, nil))) }
            srlua_pop(handle, 1)
        }
    }
}
