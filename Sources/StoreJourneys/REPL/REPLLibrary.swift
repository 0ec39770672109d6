import StoreCore
import StorePolicy
import StoreTesting

/// Lua helpers of the policy REPL: `__repl_show(...)`, the text of a line's results, each
/// formatted as a Lua table. Loaded after `PolicyTestLibrary`, whose `sorted_keys` it uses.
enum REPLLibrary {
    static let source = #"""
    local function is_identifier(key)
        return type(key) == "string" and key:match("^[%a_][%w_]*$") ~= nil
    end

    local function format(value, indent, seen)
        if type(value) == "string" then return string.format("%q", value) end
        if type(value) ~= "table" then return tostring(value) end
        if seen[value] then return "<cycle>" end
        seen[value] = true
        local n = #value
        local items = {}
        for i = 1, n do items[#items + 1] = format(value[i], indent .. "  ", seen) end
        for _, k in ipairs(sorted_keys(value)) do
            if not (math.type(k) == "integer" and k >= 1 and k <= n) then
                local key = is_identifier(k) and k or ("[" .. format(k, indent, seen) .. "]")
                items[#items + 1] = key .. " = " .. format(value[k], indent .. "  ", seen)
            end
        end
        seen[value] = nil
        if #items == 0 then return "{}" end
        local flat = "{ " .. table.concat(items, ", ") .. " }"
        if #flat <= 72 and not flat:find("\n") then return flat end
        return "{\n" .. indent .. "  " .. table.concat(items, ",\n" .. indent .. "  ") .. "\n" .. indent .. "}"
    end

    function __repl_show(...)
        local results = table.pack(...)
        local lines = {}
        for i = 1, results.n do lines[#lines + 1] = format(results[i], "", {}) end
        return table.concat(lines, "\n")
    end
    """#
}
