import CLua

extension LuaState {
    /// Opens the libraries the sandbox shows and builds its read-only globals; returns them and
    /// the function that freezes a table into a read-only view.
    func installSandbox() throws(LuaError) -> (globals: LuaReference, freeze: LuaReference) {
        // Only the libraries the sandbox shows are opened: io, os, package, debug and
        // coroutine would be unreachable, but would still take the state's memory.
        let libraries: [(String, lua_CFunction)] = [
            ("_G", luaopen_base), ("string", luaopen_string), ("table", luaopen_table), ("math", luaopen_math), ("utf8", luaopen_utf8),
        ]
        for (name, open) in libraries {
            luaL_requiref(handle, name, open, 1)
            lua_settop(handle, -2)
        }
        let stack = LuaStack(handle)
        let base = stack.top
        defer { stack.setTop(base) }
        var builder = LuaSandbox.builder
        let status = builder.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                srlua_loadbuffer(handle, chars.baseAddress, chars.count, "=sandbox", "t")
            }
        }
        guard status == LUA_OK else {
            throw LuaError(kind: .syntax, message: stack.string(at: -1) ?? "sandbox does not compile")
        }
        lua_rawgeti(handle, srlua_registryindex(), lua_Integer(srlua_ridx_globals()))
        let fullGlobals = stack.top
        stack.pushTable()
        for library in LuaSandbox.libraries {
            stack.pushTable()
            let copy = stack.top
            stack.pushField(named: library.name, of: fullGlobals)
            stack.forEachPair(of: -1) { key, value in
                if let name = stack.string(at: key), library.removed.contains(name) { return }
                stack.pushCopy(of: key)
                stack.pushCopy(of: value)
                stack.setPair(of: copy)
            }
            stack.setTop(copy)
            stack.setField(named: library.name, of: copy - 1)
        }
        srlua_push_callback(handle, printTrampoline, Unmanaged.passUnretained(printBox).toOpaque())
        lua_pushcclosure(handle, srlua_make_view_index, 0)
        let status2 = srlua_pcall(handle, 4, 2, 0)
        guard status2 == LUA_OK else {
            throw LuaError(kind: .runtime, message: stack.string(at: -1) ?? "sandbox failed to build")
        }
        let freeze = reference(toValueAt: -1)
        lua_pushvalue(handle, -2)
        lua_rawseti(handle, srlua_registryindex(), lua_Integer(srlua_ridx_globals()))
        // The loaded-modules table would keep the full globals alive; nothing requires modules.
        lua_pushnil(handle)
        lua_setfield(handle, srlua_registryindex(), "_LOADED")
        return (reference(toValueAt: -2), freeze)
    }
}
