/// The environment policy code runs in.
///
/// Only `string`, `table`, `math`, `utf8` and a trimmed base library are reachable. The
/// library tables and the globals are read-only proxies, the string metatable is locked,
/// `load` compiles text only, `collectgarbage` only counts, and `setmetatable` refuses
/// finalizers (which would run outside the limits of a call). There is no `io`, `os`,
/// `package`, `require`, `debug`, `dofile`, `loadfile`, `rawset` or `string.dump`.
enum LuaSandbox {
    /// Base functions copied into the sandbox as they are.
    static let baseFunctions = [
        "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
        "tostring", "type", "xpcall", "rawequal", "rawlen", "rawget", "getmetatable",
    ]

    /// Libraries reachable as read-only proxies, with the functions removed from them.
    static let libraries: [(name: String, removed: [String])] = [
        ("string", ["dump"]), ("table", []), ("math", []), ("utf8", []),
    ]

    /// Builds the sandbox. Called with the full base library as `base`, the full library
    /// tables in `libraries`, and the host's `print`; returns the read-only globals table
    /// and a function that turns a host table into a deeply read-only one.
    static var builder: String { builderPrefix + baseFunctionList + builderBody }

    private static var baseFunctionList: String {
        "local BASE_FUNCTIONS = {" + baseFunctions.map { "\"\($0)\"" }.joined(separator: ", ") + "}\n"
    }

    private static let builderPrefix = "local base, libraries, print, make_view_index = ...\n"

    private static let builderBody = """
    -- Every name the sandbox's functions use is a local, so none of them keeps the full
    -- globals table (this chunk's _ENV) alive once the sandbox is built.
    local error, type, rawget, select, next = base.error, base.type, base.rawget, base.select, base.next
    local real_setmetatable, real_load, real_collectgarbage, tostring =
        base.setmetatable, base.load, base.collectgarbage, base.tostring

    -- A view is an empty table whose metatable answers reads from the table it shows, its
    -- target, and refuses writes. view_targets finds each view's target (the host reads it
    -- through __proxied) and view_names its name, for errors.
    local view_targets = real_setmetatable({}, { __mode = "k" })
    local view_names = real_setmetatable({}, { __mode = "k" })
    local function view_newindex(view, key)
        error("attempt to modify read-only table '" .. view_names[view] .. "' (field '" .. tostring(key) .. "')", 2)
    end
    -- pairs hands the loop the view, never its target, so the loop's state cannot be written.
    local function view_pairs(view)
        local target = view_targets[view]
        return function(_, key) return next(target, key) end, view, nil
    end
    local function view_len(view) return #view_targets[view] end

    local function view_of(target, name, metatable)
        local view = real_setmetatable({}, metatable)
        view_targets[view] = target
        view_names[view] = name
        return view
    end

    -- The globals and libraries, read on nearly every line, get a metatable each whose __index
    -- is the target itself: a read is one table lookup.
    local function readonly(target, name)
        return view_of(target, name, {
            __index = target, __newindex = view_newindex, __pairs = view_pairs, __len = view_len,
            __metatable = false, __proxied = view_targets,
        })
    end

    -- Frozen host data (the catalog, its products, offers and lists) shares one metatable whose
    -- __index, a C function, finds the target through view_targets: a view costs an empty
    -- table and two weak entries instead of a metatable of its own.
    local frozen_metatable = {
        __index = make_view_index(view_targets), __newindex = view_newindex, __pairs = view_pairs, __len = view_len,
        __metatable = false, __proxied = view_targets,
    }

    local globals = {}
    for _, name in ipairs(BASE_FUNCTIONS) do globals[name] = base[name] end
    for name, library in pairs(libraries) do globals[name] = readonly(library, name) end
    globals._VERSION = base._VERSION
    globals.print = print

    function globals.load(chunk, chunkname, mode, ...)
        if mode ~= nil and mode ~= "t" then
            error("load: only text chunks can be loaded (mode \\"t\\")", 2)
        end
        return real_load(chunk, chunkname, "t", ...)
    end

    function globals.collectgarbage(option)
        if option == nil or option == "count" then return real_collectgarbage("count") end
        error("collectgarbage: only \\"count\\" is available to policies", 2)
    end

    function globals.setmetatable(target, metatable)
        if type(metatable) == "table" and rawget(metatable, "__gc") ~= nil then
            error("setmetatable: finalizers (__gc) are not available to policies", 2)
        end
        return real_setmetatable(target, metatable)
    end

    local sandbox = readonly(globals, "_G")
    globals._G = sandbox
    getmetatable("").__metatable = false

    local function freeze(target, name)
        for key, value in next, target do
            if type(value) == "table" then target[key] = freeze(value, name .. "." .. tostring(key)) end
        end
        return view_of(target, name, frozen_metatable)
    end
    return sandbox, freeze
    """
}
