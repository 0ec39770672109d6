import Foundation
import LuaBridge
import StoreCore
import StorePolicy
import StoreTesting
import Synchronization

/// A Lua prompt over a policy folder: the sandbox with the catalog, the policy, a customer
/// context, the local test store and validated decisions at hand.
///
/// Feed it one line at a time with ``handle(_:)``; it answers with what to print, asks for
/// more input when a statement is not complete yet, or says the session is over; a Lua error
/// names the line of the input (`input:1: …`), and ``anyLineFailed`` tells whether a line
/// failed. Lines that start with `:` are commands (`:help` lists them). In Lua, `policy` is the table
/// `policy.lua` returns, `ctx` the current context (strict, as a hook's: reading a field it does
/// not have is an error naming the nearest one), `CATALOG` the catalog, and
/// `decide(hook, ...)` runs a hook through the engine with validation and defaults, on `ctx`.
public final class PolicyREPL {
    /// What to do after a line.
    public enum Response: Equatable, Sendable {
        /// Print this text (possibly empty) and prompt again.
        case output(String)
        /// The statement continues on the next line.
        case needsMoreInput
        /// The session is over.
        case quit
    }

    /// The policy folder.
    public let folder: PolicyFolder
    /// The customer context hooks see; `:ctx` commands change it.
    public private(set) var context: PolicyContext
    /// Whether decisions print their trace.
    public private(set) var tracing = false
    /// Whether any line so far failed: a Lua error, an unknown command, or a command that
    /// could not do what it was asked (a failed reload, purchase or `:ctx` change).
    public private(set) var anyLineFailed = false

    private let catalog: PolicyCatalog
    private let engine: PolicyEngine
    private let store: REPLStore?
    private let state: LuaState
    private let environment: LuaReference
    private let encoder = LuaEncoder()
    private let printed = PrintedLines()
    private let catalogTable: LuaReference
    private let strictContext: StrictContextBuilder
    private var pending = ""

    /// Opens a session on `folder`.
    ///
    /// - Throws: ``PolicyError`` when the policy does not load; a `CatalogError` when the
    ///   catalog does not.
    public init(folder: PolicyFolder, limits: LuaLimits = .default, now: Date = Date()) throws {
        self.folder = folder
        let loaded = try folder.loadCatalog()
        catalog = loaded.map(PolicyCatalog.init) ?? .empty
        let source = try folder.policySource()
        let engine = try PolicyEngine(source: source, catalog: catalog, limits: limits)
        self.engine = engine
        store = try loaded.map { try REPLStore(catalog: $0, engine: engine, start: now) }
        context = PolicyContext(now: now, storefront: loaded?.storefront.countryCode ?? "USA",
                                locale: loaded?.localeIdentifier ?? "en_US",
                                customer: CustomerContext(id: "customer-1", statusKnown: true))
        let lines = printed
        do {
            state = try LuaState(limits: limits, print: { lines.append($0) })
            environment = state.makeWritableEnvironment()
            catalogTable = try state.readOnlyReference(to: catalog, named: "CATALOG", encoder: encoder)
            strictContext = try PolicyTestLibrary.install(in: state, environment: environment, catalog: catalogTable, now: now)
            _ = try state.load(REPLLibrary.source, chunkName: "storerules-repl", environment: environment)
        } catch {
            throw PolicyError(error, hook: nil, script: "repl")
        }
        try installPolicy(source)
        defineDecide()
        try publishContext()
    }

    /// What is suspicious in the policy's table, one line each (see `PolicyLint`).
    public var warnings: [String] { engine.warnings }

    /// The prompt for the next line.
    public var prompt: String { pending.isEmpty ? "storerules> " : "        ... " }

    /// The help text of `:help`.
    public static let help = """
    Lua:   any expression or statement; results print as Lua tables.
           policy.HOOK(ctx, ...)       call a hook as it is
           decide("HOOK", ...)         run a hook through the engine (validated, with defaults) on ctx
           ctx, CATALOG, product(id), group(id), transaction{...}, context{...}
    Commands:
      :help                            this text
      :reload                          reload policy.lua (a broken policy keeps the old one) and
                                       retry the customer's unfinished grants
      :ctx                             show the customer context
      :ctx customer ID                 another customer id (and its A/B seed)
      :ctx known on|off                whether the subscription status is known
      :ctx subscribe PRODUCT [STATE]   subscribe to PRODUCT (state: subscribed, expired,
                                       in_billing_retry, in_grace_period, revoked)
      :ctx unsubscribe GROUP|PRODUCT   drop a subscription
      :ctx entitle PRODUCT             add an entitlement
      :ctx balance ITEM N              set an item balance
      :ctx set KEY JSON                set an attribute
      :ctx reset                       a new customer with a known status
      :buy PRODUCT [QUANTITY]          buy through the local test store (the context follows the ledger)
      :advance DURATION                move the store's clock: 1M, 3D, P1Y, PT2H
      :refund PRODUCT                  refund the customer's latest transaction of PRODUCT
      :storefront [PLACEMENT]          the storefront plan for the customer (default: store)
      :trace on|off                    print each decision's trace
      :quit                            leave
    """

    /// Handles one line of input.
    public func handle(_ line: String) -> Response {
        if pending.isEmpty {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(":") { return command(trimmed) }
            if trimmed.isEmpty { return .output("") }
        }
        pending += pending.isEmpty ? line : "\n" + line
        let code = pending
        let function: LuaReference
        do {
            function = try compile(code)
        } catch let error where error.kind == .syntax && error.message.hasSuffix("<eof>") {
            return .needsMoreInput
        } catch {
            pending = ""
            return .output(failed(error.description))
        }
        pending = ""
        defer { state.release(function) }
        return .output(run(function))
    }

    /// Reloads `policy.lua` when it changed on disk since it was loaded.
    ///
    /// - Returns: what happened, for the prompt to print; nil when nothing changed.
    public func reloadIfChanged() -> String? {
        guard let source = try? folder.policySource(), source.digest != engine.source.digest else { return nil }
        return reload(source).text
    }

    // MARK: Lua

    /// Compiles `code` as the chunk `input`, called by the host itself, which returns the
    /// text of its results: an expression is the argument list of `__repl_show` (closed on
    /// the next line only when a comment ends it); a statement is the body of a function
    /// whose results go to `__repl_show`, opened on its first line so that lines keep their
    /// numbers. An error raised for the caller of `input`, or of a function it calls last,
    /// is then located in `input`, never in the REPL's own code.
    private func compile(_ code: String) throws(LuaError) -> LuaReference {
        if compiles("return " + code) {
            if let expression = try? state.compileFunction("return __repl_show(" + code + ")", chunkName: "input", environment: environment) {
                return expression
            }
            return try state.compileFunction("return __repl_show(" + code + "\n)", chunkName: "input", environment: environment)
        }
        state.release(try state.compileFunction(code, chunkName: "input", environment: environment))
        return try state.compileFunction("return __repl_show((function(...) " + code + "\nend)(...))",
                                         chunkName: "input", environment: environment)
    }

    /// Whether `code` compiles as a chunk.
    private func compiles(_ code: String) -> Bool {
        guard let function = try? state.compileFunction(code, chunkName: "input", environment: environment) else { return false }
        state.release(function)
        return true
    }

    /// Runs a compiled line; returns what it printed and the text of its results or error.
    private func run(_ function: LuaReference) -> String {
        do {
            let shown = try state.call(function, chunkName: "input", arguments: { _ in 0 }, results: { stack, first, count throws(LuaError) in
                count > 0 ? stack.string(at: first) ?? "" : ""
            })
            return joined(printed.take(), shown)
        } catch {
            return joined(printed.take(), failed(error.description))
        }
    }

    /// Notes that the line failed; returns `message`, what it prints.
    private func failed(_ message: String) -> String {
        anyLineFailed = true
        return message
    }

    private func joined(_ lines: [String], _ last: String) -> String {
        (lines + (last.isEmpty ? [] : [last])).joined(separator: "\n")
    }

    private func installPolicy(_ source: PolicySource) throws(PolicyError) {
        let policy: LuaReference
        do {
            policy = try state.load(source.text, chunkName: source.chunkName)
        } catch {
            throw PolicyError(error, hook: nil, script: source.chunkName)
        }
        state.setField("policy", in: environment) { $0.push(policy) }
    }

    private func publishContext() throws(PolicyError) {
        do throws(LuaError) {
            try state.setField("ctx", in: environment) { stack throws(LuaError) in
                try strictContext.push(context, catalog: catalogTable, onto: stack, encoder: encoder)
            }
        } catch {
            throw PolicyError(error, hook: nil, script: "repl")
        }
    }

    private func defineDecide() {
        state.defineFunction("decide") { [unowned self] stack throws(LuaError) in
            guard let hook = stack.string(at: 1) else {
                throw LuaError(kind: .runtime, message: "decide: the first argument is the hook's name")
            }
            var arguments: [LuaValue] = []
            if stack.top >= 2 {
                for index in 2...stack.top { arguments.append(try stack.value(at: index)) }
            }
            do throws(PolicyError) {
                let response = try HookRequest(hook: hook, context: context, arguments: arguments).evaluate(with: engine)
                if tracing, let trace = response.trace {
                    printed.append("trace: " + ((try? JSONEncoding.compact(trace)) ?? ""))
                }
                stack.push(response.result.luaValue)
                return 1
            } catch {
                throw LuaError(kind: .runtime, message: error.description)
            }
        }
    }

    // MARK: Commands

    private func command(_ line: String) -> Response {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words.first {
        case ":quit", ":q", ":exit":
            return .quit
        case ":help":
            return .output(Self.help)
        case ":reload":
            do {
                let (text, succeeded) = reload(try folder.policySource())
                return .output(succeeded ? text : failed(text))
            } catch {
                return .output(failed("reload failed: \(error)"))
            }
        case ":trace":
            guard words.count == 2, ["on", "off"].contains(words[1]) else { return .output(failed("usage: :trace on|off")) }
            tracing = words[1] == "on"
            return .output("trace \(words[1])")
        case ":ctx":
            return .output(contextCommand(Array(words.dropFirst())))
        case ":storefront":
            guard words.count <= 2 else { return .output(failed("usage: :storefront [PLACEMENT]")) }
            return .output(engine.storefrontPlan(context, placement: words.count == 2 ? words[1] : "store").summary)
        case ":buy", ":advance", ":refund":
            return .output(storeCommand(words))
        default:
            return .output(failed("unknown command \(words.first ?? line); :help lists them"))
        }
    }

    private func storeCommand(_ words: [String]) -> String {
        guard let store else { return failed("no local store: \(folder.url.lastPathComponent) has no .storekit catalog") }
        let customerID = context.customer.id
        let events: [String]
        do {
            switch (words[0], words.count) {
            case (":buy", 2), (":buy", 3):
                guard let quantity = words.count == 3 ? Int(words[2]) : 1, quantity > 0 else {
                    return failed("the quantity must be a positive integer")
                }
                events = try store.buy(words[1], quantity: quantity, customer: customerID)
            case (":advance", 2):
                events = try store.advance(words[1])
            case (":refund", 2):
                events = try store.refund(words[1], customer: customerID)
            default:
                return failed("usage: :buy PRODUCT [QUANTITY] | :advance DURATION | :refund PRODUCT")
            }
            try followLedger(store)
        } catch let error as PolicyError {
            return failed(error.description)
        } catch {
            return failed("\(error)")
        }
        let balances = context.customer.balances.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return (events + ["entitlements: \(context.customer.entitlements.joined(separator: ", "))",
                          "balances: \(balances.joined(separator: ", "))"]).joined(separator: "\n")
    }

    /// Makes the context the ledger's view of the customer at the store's time.
    private func followLedger(_ store: REPLStore) throws {
        let (now, customer) = try store.customer(context.customer.id, attributes: context.customer.attributes)
        context.now = now
        context.customer = customer
        try publishContext()
    }

    /// Swaps in `source` and, with a local store, retries the customer's unfinished grants
    /// with it; returns what happened and whether the policy was swapped in.
    private func reload(_ source: PolicySource) -> (text: String, succeeded: Bool) {
        let version: String
        do {
            version = try engine.reload(source)
            try installPolicy(source)
        } catch {
            return ("reload failed, the previous policy keeps serving: \(error.description)", false)
        }
        let reloaded = "reloaded \(source.chunkName) (version \(version))"
        guard let store else { return (reloaded, true) }
        do {
            let retried = try store.retryUnfinished(customer: context.customer.id)
            if !retried.isEmpty { try followLedger(store) }
            return (([reloaded] + retried).joined(separator: "\n"), true)
        } catch {
            return (reloaded + "\nretrying unfinished grants failed: \((error as? PolicyError)?.description ?? "\(error)")", false)
        }
    }

    private func contextCommand(_ words: [String]) -> String {
        var customer = context.customer
        switch words.first {
        case nil:
            return (try? JSONEncoding.pretty(context)) ?? ""
        case "customer" where words.count == 2:
            customer.id = words[1]
            customer.seed = CustomerContext.seed(for: words[1])
        case "known" where words.count == 2 && ["on", "off"].contains(words[1]):
            customer.statusKnown = words[1] == "on"
        case "subscribe" where words.count == 2 || words.count == 3:
            guard let product = catalog.products[words[1]], let info = product.subscription else {
                return failed("no subscription '\(words[1])' in the catalog")
            }
            let stateName = words.count == 3 ? words[2] : "subscribed"
            guard let renewal = SubscriptionState(rawValue: stateName) else {
                return failed("unknown state '\(stateName)'; use " + SubscriptionState.allCases.map(\.rawValue).joined(separator: ", "))
            }
            customer.subscriptions[info.groupId] = SubscriptionSnapshot(
                productID: product.id, groupLevel: info.groupLevel, state: renewal,
                expirationDate: context.now.addingTimeInterval(30 * 86_400))
            customer.entitlements.removeAll { catalog.products[$0]?.subscription?.groupId == info.groupId }
            if renewal.isEntitled { customer.entitlements.append(product.id) }
        case "unsubscribe" where words.count == 2:
            let group = catalog.products[words[1]]?.subscription?.groupId ?? words[1]
            customer.subscriptions[group] = nil
            customer.entitlements.removeAll { catalog.products[$0]?.subscription?.groupId == group }
        case "entitle" where words.count == 2:
            guard catalog.products[words[1]] != nil else { return failed("no product '\(words[1])' in the catalog") }
            if !customer.entitlements.contains(words[1]) { customer.entitlements.append(words[1]) }
        case "balance" where words.count == 3:
            guard let amount = Int(words[2]) else { return failed("the balance must be an integer") }
            customer.balances[words[1]] = amount
        case "set" where words.count >= 3:
            let json = words.dropFirst(2).joined(separator: " ")
            do {
                customer.attributes[words[1]] = try PolicyInputError.decode(LuaValue.self, from: Data(json.utf8))
            } catch {
                return failed("\(json) is not a JSON value: \(error)")
            }
        case "reset":
            customer = CustomerContext(id: customer.id, statusKnown: true)
        default:
            return failed("usage: :ctx [customer ID | known on|off | subscribe PRODUCT [STATE] | unsubscribe GROUP | entitle PRODUCT | balance ITEM N | set KEY JSON | reset]")
        }
        context.customer = customer
        do {
            try publishContext()
        } catch {
            return failed(error.description)
        }
        return (try? JSONEncoding.compact(context.customer)) ?? ""
    }
}
