import LuaBridge
import StoreCore

/// An argument after `ctx` for ``PolicyEngine/call(_:context:arguments:traced:)``.
public enum PolicyArgument: Sendable, Equatable {
    /// A plain Lua value.
    case value(LuaValue)
    /// A catalog product, passed as `ctx.catalog.products[id]`.
    case product(String)
    /// A subscription group, passed as `ctx.catalog.groups[id]`.
    case group(String)
    /// A transaction, with Apple's field names in snake_case.
    case transaction(JWSTransactionDecodedPayload)

    func push(instance: PolicyInstance, stack: LuaStack) throws(PolicyError) {
        switch self {
        case .value(let value): stack.push(value)
        case .product(let id): try PolicyEngine.pushProduct(id, instance: instance, stack: stack)
        case .group(let id): try PolicyEngine.pushGroup(id, instance: instance, stack: stack)
        case .transaction(let transaction):
            do throws(LuaError) {
                try instance.encoder.push(transaction, onto: stack)
            } catch {
                throw PolicyError(kind: .badRequest, reason: "cannot pass the transaction: \(error.message)")
            }
        }
    }

    var traceValue: LuaValue {
        switch self {
        case .value(let value): return value
        case .product(let id), .group(let id): return .string(id)
        case .transaction(let transaction): return .string(transaction.transactionId ?? "")
        }
    }
}
