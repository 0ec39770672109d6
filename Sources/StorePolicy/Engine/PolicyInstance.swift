import LuaBridge
import StoreCore

/// One compiled policy in one Lua state, with its hooks kept in the registry.
///
/// An instance serves one thread at a time: the engine's pool hands each one to a single
/// caller and takes it back when the call ends.
final class PolicyInstance: @unchecked Sendable {
    let source: PolicySource
    /// The version of the policy and catalog the instance was compiled with.
    let version: String
    /// The catalog's part in every storefront plan, of the catalog the instance sees.
    let storefrontLayout: StorefrontLayout
    let state: LuaState
    let encoder = LuaEncoder()
    let decoder = LuaDecoder()
    private let policyTable: LuaReference
    /// The policy table, for the lint.
    var policyTableReference: LuaReference { policyTable }
    private let catalogTable: LuaReference
    private let strictContext: StrictContext
    private let lazyContext: LazyContext
    /// What `ctx.experiments` reads in this state.
    let experiments: ExperimentReader
    /// Set while a storefront plan's hooks share one `ctx`.
    private var contextHeld = false
    private var functions: [String: LuaReference?] = [:]
    private var lastLookup: (hook: String, function: LuaReference?)?

    /// Compiles `source` in a new state, runs its top-level code and checks that it returns a
    /// table whose known hooks are functions.
    init(source: PolicySource, catalog: PolicyCatalog, layout: StorefrontLayout, version: String, limits: LuaLimits,
         print: @escaping LuaState.PrintHandler, lineCounts: LuaLineCounts? = nil) throws(PolicyError) {
        self.source = source
        self.version = version
        storefrontLayout = layout
        do {
            state = try LuaState(limits: limits, print: print)
            if let lineCounts { state.countLines(into: lineCounts) }
            catalogTable = try state.readOnlyReference(to: catalog, named: "ctx.catalog", encoder: encoder)
            strictContext = StrictContext(in: state)
            strictContext.applyToProducts(of: catalogTable, in: state)
            lazyContext = LazyContext(in: state, catalog: catalogTable, entryMetatable: strictContext.subscription)
            policyTable = try state.load(source.text, chunkName: source.chunkName)
        } catch {
            var failure = PolicyError(error, hook: nil, script: source.chunkName)
            if failure.kind == .runtime || failure.kind == .badResult { failure.kind = .invalidPolicy }
            throw failure
        }
        let policy = policyTable
        let returned = state.withStack { stack in
            stack.push(policy)
            return stack.type(at: -1)
        }
        guard returned == .table else {
            throw PolicyError(kind: .invalidPolicy, script: source.chunkName,
                              reason: "the policy must return a table of hook functions, but it returned \(returned.name)")
        }
        for hook in HookRegistry.all {
            do {
                functions[hook.name] = try state.functionReference(named: hook.name, in: policyTable)
            } catch {
                throw PolicyError(kind: .invalidPolicy, hook: hook.name, script: source.chunkName, reason: error.message)
            }
        }
        let declared = try DeclaredExperiments.read(from: policyTable, in: state, script: source.chunkName)
        do {
            let context = lazyContext
            experiments = try ExperimentReader(declared, in: state) { stack in context.pushCurrent(onto: stack) }
        } catch {
            throw PolicyError(error, hook: nil, script: source.chunkName)
        }
        lazyContext.experiments = experiments
        // What compiling and loading left behind goes now, not during the first decisions.
        state.collectGarbage()
    }

    /// The hooks the policy defines, known and custom.
    var definedHooks: [String] { state.functionNames(in: policyTable) }

    /// The function for `hook`, or nil when the policy does not define it.
    func function(named hook: String) throws(PolicyError) -> LuaReference? {
        if let lastLookup, lastLookup.hook == hook { return lastLookup.function }
        if let known = functions[hook] {
            lastLookup = (hook, known)
            return known
        }
        do {
            let found = try state.functionReference(named: hook, in: policyTable)
            functions[hook] = found
            return found
        } catch {
            throw PolicyError(kind: .badRequest, hook: hook, script: source.chunkName, reason: error.message)
        }
    }

    /// Pushes `ctx` for a call: a new one, or the one a storefront plan holds.
    func pushContext(_ context: PolicyContext, onto stack: LuaStack) {
        if contextHeld {
            lazyContext.pushCurrent(onto: stack)
        } else {
            lazyContext.push(context, onto: stack)
        }
    }

    /// Whether a storefront plan holds the `ctx` its hooks share.
    var holdsContext: Bool { contextHeld }

    /// Ends the call's `ctx`, unless a storefront plan holds it for its next hook.
    func endCall() {
        if !contextHeld { lazyContext.end() }
    }

    /// Makes `context` the `ctx` of every call until ``releaseContext()``.
    func holdContext(_ context: PolicyContext) {
        state.withStack { stack in lazyContext.push(context, onto: stack) }
        contextHeld = true
    }

    /// Ends the context ``holdContext(_:)`` began.
    func releaseContext() {
        contextHeld = false
        lazyContext.end()
    }

    /// Pushes `grant`'s transaction, strict like `ctx`.
    func pushTransaction(_ transaction: JWSTransactionDecodedPayload, onto stack: LuaStack) throws(LuaError) {
        try encoder.push(transaction, onto: stack)
        stack.setMetatable(strictContext.transaction, of: -1)
    }

    /// Pushes the transaction `consumption` is asked about with what the ledger delivered of
    /// it (``TransactionDelivery/luaFields``), strict like `ctx`.
    func pushRefundedTransaction(_ transaction: JWSTransactionDecodedPayload, delivery: TransactionDelivery,
                                 onto stack: LuaStack) throws(LuaError) {
        try encoder.push(transaction, onto: stack)
        let table = stack.top
        for (field, value) in delivery.luaFields {
            stack.push(value)
            stack.setField(named: field, of: table)
        }
        stack.setMetatable(strictContext.refundedTransaction, of: table)
    }

    /// Pushes `offers` as a list of offer tables, each strict like the catalog's.
    func pushOffers(_ offers: [PolicyProduct.Offer], onto stack: LuaStack) throws(LuaError) {
        try encoder.push(offers, onto: stack)
        let list = stack.top
        for position in offers.indices {
            if stack.pushItem(position + 1, of: list) == .table { stack.setMetatable(strictContext.offer, of: stack.top) }
            stack.setTop(list)
        }
    }

    /// Pushes the catalog's entry `key` of section `section` ("products" or "groups"),
    /// or nil when there is none.
    @discardableResult
    func pushCatalogEntry(section: String, key: String, onto stack: LuaStack) -> Bool {
        stack.push(catalogTable)
        let catalog = stack.top
        stack.pushIndexedField(section, of: catalog)
        let found = stack.pushIndexedField(key, of: catalog + 1) != .nil
        stack.replace(catalog)
        stack.setTop(catalog)
        return found
    }
}
