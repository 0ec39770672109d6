import Foundation
import LuaBridge

extension PolicyContext {
    /// The context a Lua `ctx` table describes, such as one `context{...}` built in a test:
    /// read as `eval` reads its input, with the attached catalog left out (the engine brings
    /// its own) and empty tables read as absent (Lua cannot tell an empty list from an empty map).
    ///
    /// - Throws: ``PolicyInputError`` naming the field that is wrong.
    package init(luaValue: LuaValue) throws(PolicyInputError) {
        guard case .table(var table) = luaValue else {
            throw .invalidValue(path: "", reason: "ctx must be a table")
        }
        table.hash[.string("catalog")] = nil
        let data: Data
        do {
            data = try JSONEncoder().encode(Self.withoutEmptyTables(.table(table)))
        } catch {
            throw .invalidValue(path: "", reason: "ctx cannot be read: \(error)")
        }
        self = try PolicyInputError.decode(PolicyContext.self, from: data)
    }

    private static func withoutEmptyTables(_ value: LuaValue) -> LuaValue {
        guard case .table(let table) = value else { return value }
        var hash: [LuaValue: LuaValue] = [:]
        for (key, item) in table.hash {
            if case .table(let inner) = item, inner.array.isEmpty, inner.hash.isEmpty { continue }
            hash[key] = withoutEmptyTables(item)
        }
        return .table(LuaTable(array: table.array.map(withoutEmptyTables), hash: hash))
    }
}
