import Foundation
import LuaBridge
import StoreCore

/// The arguments after `ctx` of one hook request, with the context and engine they are for,
/// read as the hook expects them: what `eval`, the service and `diff` send as JSON, or what a
/// test passes to `decide` in Lua.
///
/// The two differ only in a transaction: JSON gives Apple's field names (milliseconds for
/// dates), Lua a table as `transaction{...}` builds it (snake_case, seconds).
struct HookArguments {
    /// Where the arguments come from.
    enum Form {
        /// JSON values: `eval --arg`, `eval --jsonl`, the service's decision route, `diff`.
        case json
        /// Values on a Lua stack, the first of them at `first`: `decide` in a test file.
        case lua(LuaStack, first: Int32)
    }

    /// The hook's name, for errors.
    let hook: String
    /// The arguments as values.
    let values: [LuaValue]
    /// The context as the engine's hook receives it.
    let context: PolicyContext
    /// The engine that runs the hook.
    let engine: PolicyEngine
    /// Where the arguments come from.
    let form: Form
    /// Where JSON arguments shared with other requests are kept once decoded, if anywhere.
    var cache: HookArgumentCache?

    /// A bad request naming the hook and `reason`.
    func refusal(_ reason: String) -> PolicyError {
        PolicyError(kind: .badRequest, hook: hook, reason: reason)
    }

    /// Whether an argument is given at `index` (a Lua `nil` counts as not given).
    func isGiven(_ index: Int) -> Bool {
        guard index < values.count else { return false }
        if case .nil = values[index] { return false }
        return true
    }

    /// The string at `index`, `fallback` when it is not given.
    func string(_ index: Int, _ what: String, default fallback: String? = nil) throws(PolicyError) -> String {
        guard index < values.count else {
            if let fallback { return fallback }
            throw refusal("missing argument \(index + 1): the \(what)")
        }
        guard case .string(let text) = values[index] else {
            throw refusal("argument \(index + 1) must be the \(what) as a string")
        }
        return text
    }

    /// The table at `index`; `what` describes it when it is missing or not a table.
    func table(_ index: Int, _ what: String) throws(PolicyError) -> LuaValue {
        guard index < values.count, case .table = values[index] else {
            throw refusal("argument \(index + 1) must be \(what)")
        }
        return values[index]
    }

    /// The argument at `index` read as `type` from its JSON, the way ``PolicyInputError`` reads input.
    func decoded<Value: Decodable>(_ type: Value.Type, at index: Int, _ what: String) throws(PolicyError) -> Value {
        try kept(type, at: index) { () throws(PolicyError) -> Value in try freshlyDecoded(type, at: index, what) }
    }

    /// The argument at `index` as `type` from ``cache`` when it holds it, or as `decode` reads
    /// it (then kept there).
    func kept<Value>(_ type: Value.Type, at index: Int, decode: () throws(PolicyError) -> Value) throws(PolicyError) -> Value {
        guard let cache, case .json = form else { return try decode() }
        return try cache.value(type, at: index, now: context.now, decode: decode)
    }

    /// The argument at `index` read as `type` from its JSON, without the cache.
    private func freshlyDecoded<Value: Decodable>(_ type: Value.Type, at index: Int, _ what: String) throws(PolicyError) -> Value {
        let value = try table(index, what)
        do throws(PolicyInputError) {
            return try PolicyInputError.decode(Value.self, from: value)
        } catch {
            throw refusal("argument \(index + 1) is not \(what): \(error.description)")
        }
    }

    /// The transaction at `index`: Apple's field names in JSON, a `transaction{...}` table in Lua.
    func transaction(at index: Int) throws(PolicyError) -> JWSTransactionDecodedPayload {
        switch form {
        case .json:
            return try kept(JWSTransactionDecodedPayload.self, at: index) { () throws(PolicyError) -> JWSTransactionDecodedPayload in
                let value = try table(index, "a transaction object with Apple's field names")
                do {
                    return try SignedPayloadJSON.makeDecoder().decode(JWSTransactionDecodedPayload.self, from: JSONEncoder().encode(value))
                } catch {
                    throw refusal("argument \(index + 1) is not a transaction: \(error)")
                }
            }
        case .lua(let stack, let first):
            _ = try table(index, "a transaction table, such as transaction{...} builds")
            do throws(LuaError) {
                return try LuaDecoder().decode(JWSTransactionDecodedPayload.self, from: stack, at: first + Int32(index))
            } catch {
                throw refusal("argument \(index + 1) is not a transaction: \(error.message)")
            }
        }
    }
}
