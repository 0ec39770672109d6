import LuaBridge

/// `ctx` and `ctx.customer` as hooks receive them: read-only tables whose fields are pushed
/// the first time a hook reads them, so a hook pays only for what it reads.
///
/// Both tables stay empty; their metatables (one pair per state, locked) answer every read.
/// A field's value is made once per context and kept in a registry slot of the state, so
/// reading `ctx.customer` twice gives the same table. Each field is exactly what an eager
/// push would have made, and the strict check lives in the same place: a field the contract
/// does not list is an error naming the nearest one that it does.
///
/// A context belongs to the call it was pushed for (or to every call of a storefront plan,
/// which shares one): the tables check that they are the current ones, so a `ctx` kept past
/// its call can never show the next customer's data; reading it is an error instead.
final class LazyContext {
    /// What is made on first read and kept for the rest of the context's life.
    private enum Part: Int, CaseIterable {
        case customer, entitlements, subscriptions, balances, attributes, events

        var bit: UInt8 { 1 << UInt8(rawValue) }
    }

    private unowned let state: LuaState
    private let catalog: LuaReference
    private let entryMetatable: LuaReference
    private let next: LuaReference
    private let contextMetatable: LuaReference
    private let customerMetatable: LuaReference
    private let contextSlot: LuaReference
    private let partSlots: [LuaReference]
    private var context: PolicyContext?
    private var built: UInt8 = 0

    /// Makes the metatables in `state`; `entryMetatable` makes each subscription entry strict.
    init(in state: LuaState, catalog: LuaReference, entryMetatable: LuaReference) {
        self.state = state
        self.catalog = catalog
        self.entryMetatable = entryMetatable
        next = state.globalReference(named: "next")
        contextMetatable = state.makeSlot()
        customerMetatable = state.makeSlot()
        contextSlot = state.makeSlot()
        partSlots = Part.allCases.map { _ in state.makeSlot() }
        makeMetatable(contextMetatable, name: "ctx", fields: StrictContext.ContextField.self) { [unowned(unsafe) self] stack, field in
            self.pushContextField(field, stack: stack)
        } isCurrent: { [unowned(unsafe) self] stack in
            self.context != nil && self.holds(stack, slot: self.contextSlot)
        }
        makeMetatable(customerMetatable, name: "ctx.customer", fields: StrictContext.CustomerField.self) { [unowned(unsafe) self] stack, field in
            self.pushCustomerField(field, stack: stack)
        } isCurrent: { [unowned(unsafe) self] stack in
            self.context != nil && self.built & Part.customer.bit != 0 && self.holds(stack, slot: self.partSlots[Part.customer.rawValue])
        }
    }

    /// Pushes a new `ctx` for `context`, which becomes the current one.
    func push(_ context: PolicyContext, onto stack: LuaStack) {
        stack.pushTable()
        stack.setMetatable(contextMetatable, of: -1)
        stack.pushCopy(of: -1)
        stack.store(into: contextSlot)
        self.context = context
        built = 0
    }

    /// Pushes the current `ctx` again, for the next hook of a storefront plan.
    func pushCurrent(onto stack: LuaStack) {
        stack.push(contextSlot)
    }

    /// Ends the current context: its tables answer no more reads.
    func end() {
        context = nil
    }

    // MARK: Fields

    /// Pushes field `field` of `ctx`.
    private func pushContextField(_ field: StrictContext.ContextField, stack: LuaStack) {
        guard let context else { return stack.pushNil() }
        switch field {
        case .now: stack.push(EpochSeconds.whole(context.now))
        case .storefront: stack.push(context.storefront)
        case .locale: stack.push(context.locale)
        case .environment: stack.push(context.environment.rawValue)
        case .catalog: stack.push(catalog)
        case .customer:
            pushPart(.customer, stack: stack) {
                stack.pushTable()
                stack.setMetatable(customerMetatable, of: -1)
            }
        }
    }

    /// Pushes field `field` of `ctx.customer`.
    private func pushCustomerField(_ field: StrictContext.CustomerField, stack: LuaStack) {
        guard let customer = context?.customer else { return stack.pushNil() }
        switch field {
        case .id: stack.push(customer.id)
        case .seed: stack.push(customer.seed)
        case .statusKnown: stack.push(customer.statusKnown)
        case .entitlements: pushPart(.entitlements, stack: stack) { customer.pushEntitlements(onto: stack) }
        case .subscriptions:
            pushPart(.subscriptions, stack: stack) { customer.pushSubscriptions(onto: stack, entryMetatable: entryMetatable) }
        case .balances: pushPart(.balances, stack: stack) { customer.pushBalances(onto: stack) }
        case .attributes: pushPart(.attributes, stack: stack) { customer.pushAttributes(onto: stack) }
        case .events: pushPart(.events, stack: stack) { customer.pushEvents(onto: stack) }
        }
    }

    /// Pushes `part`, making it with `make` the first time the current context needs it.
    private func pushPart(_ part: Part, stack: LuaStack, make: () -> Void) {
        let slot = partSlots[part.rawValue]
        if built & part.bit != 0 {
            stack.push(slot)
            return
        }
        make()
        stack.pushCopy(of: -1)
        stack.store(into: slot)
        built |= part.bit
    }

    /// Whether the table at index 1 is the one `slot` holds.
    private func holds(_ stack: LuaStack, slot: LuaReference) -> Bool {
        stack.push(slot)
        defer { stack.setTop(stack.top - 1) }
        return stack.rawEqual(1, -1)
    }

    // MARK: Metatables

    /// Builds the metatable `slot` holds: `__index` finds the key among `fields` through a
    /// table of their names and pushes the field with `push` (an error for a key the contract
    /// does not list), `__pairs` walks a snapshot of every field, `__newindex` refuses, and
    /// the metatable is locked.
    private func makeMetatable<Field: RawRepresentable & CaseIterable>(
        _ slot: LuaReference, name: String, fields: Field.Type,
        push: @escaping (LuaStack, Field) -> Void,
        isCurrent: @escaping (LuaStack) -> Bool
    ) where Field.RawValue == String {
        let ended = "\(name) belongs to a hook call that has ended; keep the values a later call needs, not \(name)"
        let cases = Array(Field.allCases)
        let names = cases.map(\.rawValue)
        let positions = state.withStack { stack in
            stack.pushTable(fieldCount: cases.count)
            for (position, field) in names.enumerated() {
                stack.push(position)
                stack.setField(named: field, of: -2)
            }
            return state.reference(toValueAt: -1)
        }
        let index = state.functionReference { stack throws(LuaError) in
            guard isCurrent(stack) else { throw Self.error(ended, stack) }
            stack.push(positions)
            stack.pushCopy(of: 2)
            if stack.pushRawField(of: -2) == .number, let position = stack.integer(at: -1) {
                stack.setTop(2)
                push(stack, cases[Int(position)])
                return 1
            }
            throw StrictContext.unknownField(of: name, fields: names, stack)
        }
        let pairs = state.functionReference { [unowned(unsafe) self] stack throws(LuaError) in
            guard isCurrent(stack) else { throw Self.error(ended, stack) }
            stack.push(self.next)
            stack.pushTable(fieldCount: cases.count)
            let snapshot = stack.top
            for field in cases {
                push(stack, field)
                stack.setField(named: field.rawValue, of: snapshot)
            }
            stack.pushNil()
            return 3
        }
        let refuse = state.functionReference { stack throws(LuaError) in
            throw Self.error("attempt to modify read-only table '\(name)' (field '\(StrictContext.keyText(stack))')", stack)
        }
        state.withStack { stack in
            stack.pushTable(fieldCount: 4)
            stack.push(index)
            stack.setField("__index", of: -2)
            stack.push(pairs)
            stack.setField("__pairs", of: -2)
            stack.push(refuse)
            stack.setField("__newindex", of: -2)
            stack.push(false)
            stack.setField("__metatable", of: -2)
            stack.store(into: slot)
        }
    }

    /// An error raised at the policy line that read or wrote the field.
    private static func error(_ message: String, _ stack: LuaStack) -> LuaError {
        LuaError(kind: .runtime, message: stack.location(level: 1) + message)
    }
}
