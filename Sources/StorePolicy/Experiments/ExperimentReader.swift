import LuaBridge
import StoreCore
import TextMatching

/// `ctx.experiments` in one Lua state: a read-only table whose first read of each experiment
/// asks the host for the customer's variant of it (a variant is then kept in the table), and
/// remembers the first reads of variants the ledger has not recorded, for the caller to record
/// as exposures.
///
/// A read answers, in this order: the context's pin; `nil` for an anonymous customer or
/// outside the window; the variant the ledger recorded in this phase; `nil` outside the traffic
/// or the audience; the assigned variant. Each experiment is settled once per context, so a
/// storefront plan's hooks read one answer and the audience runs at most once.
final class ExperimentReader {
    /// The declarations by name.
    let declarations: [String: ExperimentDeclaration]
    /// The name of the hook that is running, which a read is recorded under.
    var hook = ""
    private let names: [String]
    private var metatable: LuaReference?
    private var context = PolicyContext()
    private var settled: [String: String?] = [:]
    private var pinsChecked = false
    /// The experiments whose audience is being asked, so an audience reading its own
    /// experiment is an error rather than an endless recursion.
    private var settling: Set<String> = []
    private var reads: [ExperimentRead] = []

    /// Makes the table's metatable in `state` for the experiments `declared`;
    /// `pushCurrentContext` pushes the `ctx` of the running call, for audiences.
    init(_ declared: DeclaredExperiments, in state: LuaState, pushCurrentContext: @escaping (LuaStack) -> Void) throws(LuaError) {
        declarations = declared.declarations
        names = declared.declarations.keys.sorted()
        let lookup = state.functionReference { [unowned self] stack throws(LuaError) in try self.lookup(stack) }
        let settle = state.functionReference { [unowned self] stack throws(LuaError) in
            let name = stack.string(at: 1) ?? ""
            self.push(self.settle(name, passesAudience: stack.bool(at: 2) == true), onto: stack)
            return 1
        }
        let current = state.functionReference { stack throws(LuaError) in
            pushCurrentContext(stack)
            return 1
        }
        let refuse = state.functionReference { stack throws(LuaError) in
            throw LuaError(kind: .runtime, message: stack.location(level: 1)
                + "attempt to modify read-only table 'ctx.experiments' (field '\(StrictContext.keyText(stack))')")
        }
        let walk = state.functionReference { stack throws(LuaError) in
            throw LuaError(kind: .runtime, message: stack.location(level: 1)
                + "ctx.experiments cannot be walked: read the experiment a rule decides on by name (ctx.experiments.NAME), so that only it records an exposure")
        }
        let remember = state.functionReference { stack throws(LuaError) in
            stack.setPair(of: 1)
            return 0
        }
        // A variant answered is kept in the context's table, so the hooks that read it again
        // (a style per product) find it without a call; `nil` answers ask each time.
        let maker = try state.compileFunction("""
            local lookup, settle, audiences, current, remember = ...
            return function(experiments, name)
                local variant, ask = lookup(name)
                if ask then variant = settle(name, audiences[name](current()) and true or false) end
                if variant ~= nil then remember(experiments, name, variant) end
                return variant
            end
            """, chunkName: "=ctx.experiments")
        let index = try state.call(maker, arguments: { stack throws(LuaError) in
            stack.push(lookup)
            stack.push(settle)
            if let audiences = declared.audiences { stack.push(audiences) } else { stack.pushTable() }
            stack.push(current)
            stack.push(remember)
            return 5
        }, results: { stack, first, _ throws(LuaError) in state.reference(toValueAt: first) })
        metatable = state.withStack { stack in
            stack.pushTable(fieldCount: 4)
            stack.push(index)
            stack.setField("__index", of: -2)
            stack.push(refuse)
            stack.setField("__newindex", of: -2)
            stack.push(walk)
            stack.setField("__pairs", of: -2)
            stack.push(false)
            stack.setField("__metatable", of: -2)
            return state.reference(toValueAt: -1)
        }
    }

    /// Starts reading for `context`, forgetting the last context's answers and reads.
    func begin(_ context: PolicyContext) {
        self.context = context
        if !settled.isEmpty { settled.removeAll(keepingCapacity: true) }
        pinsChecked = context.experiments.isEmpty
        if !settling.isEmpty { settling.removeAll(keepingCapacity: true) }
        if !reads.isEmpty { reads.removeAll(keepingCapacity: true) }
    }

    /// Pushes a new, empty `ctx.experiments` whose reads come here.
    func pushTable(onto stack: LuaStack) {
        stack.pushTable()
        if let metatable { stack.setMetatable(metatable, of: stack.top) }
    }

    /// The first reads of variants since the last call, which the ledger does not have yet.
    func takeReads() -> [ExperimentRead] {
        defer { if !reads.isEmpty { reads.removeAll(keepingCapacity: true) } }
        return reads
    }

    /// `lookup(name)`: the variant when it is settled without the audience, and whether the
    /// audience must be asked first.
    private func lookup(_ stack: LuaStack) throws(LuaError) -> Int32 {
        guard stack.type(at: 1) == .string, let name = stack.string(at: 1), let declaration = declarations[name] else {
            let key = stack.type(at: 1) == .string ? stack.string(at: 1) ?? "" : "a \(stack.type(at: 1).name) key"
            let hint = NearestName.nearest(to: key, in: names).map { " (did you mean '\($0)'?)" } ?? ""
            let listed = names.count > 10 ? names.prefix(10).joined(separator: ", ") + " and \(names.count - 10) more" : names.joined(separator: ", ")
            let known = names.isEmpty ? "the policy declares none in policy.experiments" : "declared: \(listed)"
            throw LuaError(kind: .runtime, message: stack.location(level: 2) + "ctx.experiments has no experiment '\(key)'\(hint); \(known)")
        }
        guard !settling.contains(name) else {
            throw LuaError(kind: .runtime, message: stack.location(level: 2)
                + "the audience of the experiment '\(name)' reads ctx.experiments.\(name): an audience decides who takes part before any variant exists")
        }
        if !pinsChecked { try checkPins(stack) }
        if let answer = settled[name] {
            push(answer, onto: stack)
            return 1
        }
        if let pin = context.experiments[name] {
            return try pinned(pin, of: declaration, stack)
        }
        let customerID = context.customer.id
        guard !customerID.isEmpty, declaration.isRunning(at: context.now) else { return answer(nil, for: name, stack) }
        if let kept = context.customer.exposures[name]?[declaration.phase] { return answer(kept, for: name, stack) }
        guard declaration.includesInTraffic(customerID: customerID) else { return answer(nil, for: name, stack) }
        if declaration.hasAudience {
            settling.insert(name)
            stack.pushNil()
            stack.push(true)
            return 2
        }
        push(settle(name, passesAudience: true), onto: stack)
        return 1
    }

    private func pinned(_ pin: ExperimentPin, of declaration: ExperimentDeclaration, _ stack: LuaStack) throws(LuaError) -> Int32 {
        if let variant = pin.variant, !declaration.variantNames.contains(variant) {
            let hint = NearestName.nearest(to: variant, in: declaration.variantNames).map { " (did you mean '\($0)'?)" } ?? ""
            throw LuaError(kind: .runtime, message: stack.location(level: 2)
                + "the context pins \(declaration.name) to '\(variant)', which is not one of its variants (\(declaration.variantNames.joined(separator: ", ")))\(hint)")
        }
        return answer(pin.variant, for: declaration.name, stack)
    }

    private func checkPins(_ stack: LuaStack) throws(LuaError) {
        for name in context.experiments.keys.sorted() where declarations[name] == nil {
            let hint = NearestName.nearest(to: name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw LuaError(kind: .runtime, message: stack.location(level: 2)
                + "the context pins the experiment '\(name)', which the policy does not declare\(hint)")
        }
        pinsChecked = true
    }

    private func answer(_ variant: String?, for name: String, _ stack: LuaStack) -> Int32 {
        settled[name] = .some(variant)
        push(variant, onto: stack)
        return 1
    }

    /// Settles `name` once the audience has answered: the assigned variant, recorded as a read.
    private func settle(_ name: String, passesAudience: Bool) -> String? {
        settling.remove(name)
        if let answer = settled[name] { return answer }
        guard passesAudience, let declaration = declarations[name],
              let variant = declaration.assignedVariant(customerID: context.customer.id) else {
            settled[name] = .some(nil)
            return nil
        }
        settled[name] = .some(variant)
        reads.append(ExperimentRead(experiment: name, phase: declaration.phase, variant: variant, hook: hook))
        return variant
    }

    private func push(_ variant: String?, onto stack: LuaStack) {
        if let variant { stack.push(variant) } else { stack.pushNil() }
    }
}

/// A variant a decision read that the ledger had not recorded for the customer.
struct ExperimentRead: Sendable, Hashable {
    /// The experiment's name.
    var experiment: String
    /// Its phase.
    var phase: String
    /// The variant read.
    var variant: String
    /// The hook that read it first.
    var hook: String
}

extension ExperimentRead {
    /// `reads` as the exposures of `context`'s customer, made by the policy version
    /// `policyVersion` at `placement`, at the context's time.
    static func exposures(_ reads: [ExperimentRead], context: PolicyContext, policyVersion: String,
                          placement: String?) -> [ExperimentExposure] {
        reads.map {
            ExperimentExposure(customerID: context.customer.id, experiment: $0.experiment, phase: $0.phase, variant: $0.variant,
                               exposedDate: context.now, policyVersion: policyVersion, hook: $0.hook, placement: placement)
        }
    }
}
