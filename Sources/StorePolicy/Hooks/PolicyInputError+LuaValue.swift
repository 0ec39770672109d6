import Foundation
import LuaBridge

extension PolicyInputError {
    /// Decodes `type` from a Lua value as `eval --arg` and `decide` give it, the way JSON input
    /// is read: the value's JSON, with each of `defaults` added to a table that lacks the key.
    package static func decode<Value: Decodable>(_ type: Value.Type, from value: LuaValue,
                                                 defaults: [String: LuaValue] = [:]) throws(PolicyInputError) -> Value {
        var value = value
        if case .table(var table) = value {
            for (key, fallback) in defaults where table.hash[.string(key)] == nil {
                table.hash[.string(key)] = fallback
            }
            value = .table(table)
        }
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw PolicyInputError.invalidValue(path: "", reason: "the value has no JSON form: \(error)")
        }
        return try decode(type, from: data)
    }
}
