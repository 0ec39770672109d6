import LuaBridge
import StoreCore

extension PolicyEngine {
    /// Calls any hook the policy defines, known or custom, with `arguments` after `ctx`, and
    /// returns its first result as it is, without validation or default.
    public func call(_ hook: String, context: PolicyContext, arguments: [PolicyArgument], traced: Bool = false) throws(PolicyError) -> Decision<LuaValue> {
        var value = LuaValue.nil
        let called = try callCustom(hook, context: context, arguments: arguments, traced: traced) { stack, first, count throws(LuaError) in
            value = count > 0 ? try stack.value(at: first) : .nil
        }
        return Decision(value: value, source: .policy, trace: called.trace, exposures: called.exposures)
    }

    /// Calls any hook the policy defines and reads its first result straight from the Lua
    /// stack as `Result`: the fastest way for a host to take a custom hook's decision.
    @inlinable
    public func call<Result: LuaReadable & Sendable>(_ hook: String, context: PolicyContext, arguments: [PolicyArgument],
                                                     as type: Result.Type, traced: Bool = false) throws(PolicyError) -> Decision<Result> {
        var value: Result?
        let called = try callCustom(hook, context: context, arguments: arguments, traced: traced) { stack, first, count throws(LuaError) in
            guard count > 0 else { throw LuaError(kind: .badResult, message: "the hook returned nothing") }
            value = try Result(from: stack, at: first)
        }
        guard let value else {
            throw PolicyError(kind: .badResult, hook: hook, script: source.chunkName, reason: "the hook returned nothing")
        }
        return Decision(value: value, source: .policy, trace: called.trace, exposures: called.exposures)
    }

    /// Runs a custom hook, handing its results to `read`; throws when the hook is missing or
    /// fails, and returns the trace when asked for one, with the exposures the call read.
    @usableFromInline
    func callCustom(_ hook: String, context: PolicyContext, arguments: [PolicyArgument], traced: Bool,
                            read: (LuaStack, Int32, Int32) throws(LuaError) -> Void) throws(PolicyError)
        -> (trace: DecisionTrace?, exposures: [ExperimentExposure]) {
        let decision = decide(hook, context: context, traced: traced, inputs: arguments.map(\.traceValue),
                              fallback: { false },
                              arguments: { instance, stack throws(PolicyError) in
                                  for argument in arguments {
                                      try argument.push(instance: instance, stack: stack)
                                  }
                                  return Int32(arguments.count)
                              },
                              read: { _, stack, first, count throws(LuaError) in
                                  try read(stack, first, count)
                                  return true
                              })
        switch decision.source {
        case .fallback(let error): throw error
        case .defaultForMissingHook:
            throw PolicyError(kind: .badRequest, hook: hook, script: source.chunkName,
                              reason: "the policy defines no hook named '\(hook)' (it defines \(definedHooks.joined(separator: ", ")))")
        case .policy: return (decision.trace, decision.exposures)
        }
    }

    // MARK: Helpers

    static func pushProduct(_ productID: String, instance: PolicyInstance, stack: LuaStack) throws(PolicyError) {
        guard instance.pushCatalogEntry(section: "products", key: productID, onto: stack) else {
            throw PolicyError(kind: .badRequest, reason: "no product '\(productID)' in the catalog")
        }
    }

    static func pushGroup(_ groupID: String, instance: PolicyInstance, stack: LuaStack) throws(PolicyError) {
        guard instance.pushCatalogEntry(section: "groups", key: groupID, onto: stack) else {
            throw PolicyError(kind: .badRequest, reason: "no subscription group '\(groupID)' in the catalog")
        }
    }

    static func readList<Item>(_ stack: LuaStack, _ first: Int32, _ count: Int32, what: String,
                               _ parse: (String) -> Item?) throws(LuaError) -> [Item] {
        guard count > 0, stack.type(at: first) == .table else {
            throw badResult("expected a list of \(what)s", stack, first, count)
        }
        let base = stack.top
        defer { stack.setTop(base) }
        let list = stack.pushReadOnlyTarget(of: first) ? stack.top : first
        let length = stack.length(at: list)
        var keys = 0
        stack.forEachPair(of: list) { _, _ in keys += 1 }
        guard keys == length else {
            throw LuaError(kind: .badResult, message: "expected a list of \(what)s, got a table with other keys")
        }
        var items: [Item] = []
        items.reserveCapacity(length)
        for position in 1...max(1, length) where position <= length {
            stack.pushItem(position, of: list)
            defer { stack.setTop(stack.top - 1) }
            guard let text = stack.string(at: -1), let item = parse(text) else {
                throw LuaError(kind: .badResult, message: "item \(position): \(describe(stack, -1)) is not a valid \(what)")
            }
            items.append(item)
        }
        return items
    }

    static func badResult(_ expected: String, _ stack: LuaStack, _ first: Int32, _ count: Int32) -> LuaError {
        LuaError(kind: .badResult, message: "\(expected), got \(count == 0 ? "nothing" : describe(stack, first))")
    }

    static func describe(_ stack: LuaStack, _ index: Int32) -> String {
        switch stack.type(at: index) {
        case .string: return "\"\(stack.string(at: index) ?? "")\""
        case .number:
            if let integer = stack.integer(at: index) { return "\(integer)" }
            return "\(stack.number(at: index) ?? 0)"
        case .boolean: return stack.bool(at: index) == true ? "true" : "false"
        case let other: return other == .nil ? "nil" : "a \(other.name)"
        }
    }
}
