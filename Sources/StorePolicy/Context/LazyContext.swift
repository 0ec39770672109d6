import CPolicyContext
import LuaBridge

/// `ctx` and `ctx.customer` as hooks receive them: read-only tables whose fields are pushed
/// the first time a hook reads them, so a hook pays only for what it reads.
///
/// Both tables stay empty; their metatables (one pair per state, locked) answer every read.
/// They are C functions (`CPolicyContext`) that make each field from a plain-data
/// ``ContextSnapshot`` prepared once per context, with keys interned once per state and each
/// table allocated to its final shape: reading `ctx.customer.subscriptions` calls no Swift.
/// Only `attributes` and `events` (trees of any values) and `ctx.experiments` (whose reads
/// ``ExperimentReader`` answers) are pushed by Swift, which also words
/// the errors for an unknown field and for a write. A field's value is made once per context and kept in a registry
/// slot of the state, so reading `ctx.customer` twice gives the same table. The strict check
/// lives in the same place: a field the contract does not list is an error naming the nearest
/// one that it does.
///
/// A context belongs to the call it was pushed for (or to every call of a storefront plan,
/// which shares one): the tables check that they are the current ones, so a `ctx` kept past
/// its call can never show the next customer's data; reading it is an error instead.
final class LazyContext {
    private let handle: OpaquePointer
    private let snapshot: ContextSnapshot
    /// What `ctx.experiments` reads, once the policy's declarations are known.
    var experiments: ExperimentReader?

    /// Makes the metatables in `state`; `entryMetatable` makes each subscription entry strict.
    init(in state: LuaState, catalog: LuaReference, entryMetatable: LuaReference) {
        let snapshot = ContextSnapshot()
        self.snapshot = snapshot
        weak var weakSelf: LazyContext?
        let pushPart = state.functionReference { stack throws(LuaError) in
            switch stack.integer(at: 1) {
            case Int64(POLICY_CONTEXT_ATTRIBUTES): CustomerContext.pushAttributes(snapshot.customer.attributes, onto: stack)
            case Int64(POLICY_CONTEXT_EVENTS): CustomerContext.pushEvents(snapshot.customer.events, onto: stack)
            default:
                if let experiments = weakSelf?.experiments { experiments.pushTable(onto: stack) } else { stack.pushTable() }
            }
            return 1
        }
        let errorText = state.functionReference { stack throws(LuaError) in
            let table = stack.integer(at: 1) == Int64(POLICY_CONTEXT_CTX) ? ContextTable.context : ContextTable.customer
            let (name, fields) = (table.name, table.fieldNames)
            if stack.bool(at: 3) == true {
                stack.push("attempt to modify read-only table '\(name)' (field '\(StrictContext.keyText(stack))')")
            } else {
                stack.push(StrictContext.unknownFieldMessage(of: name, fields: fields, stack))
            }
            return 1
        }
        let next = state.globalReference(named: "next")
        handle = state.withStack { stack in
            policy_context_open(stack.luaState, catalog.registrySlot, entryMetatable.registrySlot, next.registrySlot,
                                pushPart.registrySlot, errorText.registrySlot)
        }
        weakSelf = self
    }

    /// Pushes a new `ctx` for `context`, which becomes the current one.
    func push(_ context: PolicyContext, onto stack: LuaStack) {
        experiments?.begin(context)
        policy_context_push(stack.luaState, handle, snapshot.fill(from: context))
    }

    /// Pushes the current `ctx` again, for the next hook of a storefront plan.
    func pushCurrent(onto stack: LuaStack) {
        policy_context_push_current(stack.luaState, handle)
    }

    /// Ends the current context: its tables answer no more reads.
    func end() {
        policy_context_end(handle)
    }
}
