import Foundation
import LuaBridge
import StorePolicy
import Testing
import TestPrerequisites

/// The fields of `ctx`, `ctx.customer` and a subscription entry are declared once
/// (``ContextTable``, from `CPolicyContext`'s declaration). These tie what else names them to
/// that declaration: the C context that makes the tables, the JSON input `eval` and `decide`
/// read, and the test library's `context{...}`. Each fails when a field is declared that one of
/// them lacks, or one of them gains a field the declaration lacks.
@Suite struct ContextDeclarationTests {
    /// A Lua function `kind(value)` naming a value as ``ContextTable/Kind`` does, and
    /// `describe(lines, prefix, table, walk)` adding `prefix.key=kind` for each pair `walk` gives.
    private static let describing = """
    local function kind(value)
        local lua_type = type(value)
        if lua_type == "number" then return math.type(value) == "integer" and "integer" or "number" end
        if lua_type ~= "table" or #value == 0 then return lua_type end
        for _, item in ipairs(value) do
            if type(item) ~= "string" then return "table" end
        end
        return "string list"
    end
    local function raw(t) return next, t, nil end
    local function describe(lines, prefix, t, walk)
        for key, value in walk(t) do lines[#lines + 1] = prefix .. "." .. key .. "=" .. kind(value) end
    end

    """

    /// `prefix.name=kind` for each field of `table` (only those always there, unless `all`).
    private func lines(_ prefix: String, _ table: ContextTable, all: Bool = true) -> [String] {
        table.fields.filter { all || $0.alwaysPresent }.map { "\(prefix).\($0.name)=\($0.kind.rawValue)" }
    }

    private func strings(_ value: LuaValue) -> [String] {
        guard case .table(let table) = value else { return ["not a table: \(value)"] }
        return table.array.map { item in
            if case .string(let text) = item { return text }
            return "\(item)"
        }
    }

    @Test func theEnginesContextHoldsEveryDeclaredFieldAsItsKindAndNoOther() throws {
        let engine = try PolicyEngine(source: PolicySource(text: Self.describing + """
        return { fields = function(ctx)
            local lines = {}
            describe(lines, "ctx", ctx, pairs)
            describe(lines, "customer", ctx.customer, pairs)
            describe(lines, "entry", ctx.customer.subscriptions.DATED, raw)
            describe(lines, "undated_entry", ctx.customer.subscriptions.UNDATED, raw)
            table.sort(lines)
            return lines
        end }
        """))
        let context = PolicyContext(now: Date(timeIntervalSince1970: 1_767_225_600), customer: CustomerContext(
            id: "ana", statusKnown: true, entitlements: ["pass.premium"],
            subscriptions: [
                "DATED": SubscriptionSnapshot(productID: "pass.premium", groupLevel: 1, state: .expired,
                                              expirationDate: Date(timeIntervalSince1970: 1_767_000_000),
                                              winBackOfferIDs: ["premium.welcome.back"], paidMonths: 3.5),
                "UNDATED": SubscriptionSnapshot(productID: "pass.individual", groupLevel: 2, state: .subscribed,
                                                winBackOfferIDs: ["individual.welcome.back"], paidMonths: 1),
            ],
            balances: ["pellet": 5], attributes: ["name": .string("ana")],
            events: ["paywall_shown": EventHistory(count: 1, last: nil, recent: [])]))
        let expected = lines("ctx", .context) + lines("customer", .customer) + lines("entry", .subscriptionEntry)
            + lines("undated_entry", .subscriptionEntry, all: false)
        #expect(strings(try engine.call("fields", context: context, arguments: []).value) == expected.sorted())
    }

    @Test func theTestLibrarysContextBuildsEveryDeclaredFieldAsItsKindAndNoOther() throws {
        let folder = try TestFolders.make("storerules-declaration")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "fields_test.lua")
        try (Self.describing + """
        function test_fields()
            local ctx = context{ customer = {
                id = "ana", status_known = true, entitlements = { "pass.premium" },
                subscriptions = { DATED = { product_id = "pass.premium", win_back_offers = { "premium.welcome.back" }, paid_months = 3.5 } },
                balances = { pellet = 5 }, attributes = { name = "ana" }, events = { paywall_shown = { count = 1 } },
            } }
            local lines = {}
            describe(lines, "ctx", ctx, raw)
            describe(lines, "customer", ctx.customer, raw)
            describe(lines, "entry", ctx.customer.subscriptions.DATED, raw)
            table.sort(lines)
            for _, line in ipairs(lines) do print(line) end
        end
        """).write(to: file, atomically: true, encoding: .utf8)
        let runner = PolicyTestRunner(source: PolicySource(text: "return {}", chunkName: "policy.lua"), catalog: testCatalog)
        let outcomes = runner.run(file: file, selected: { _ in true })
        #expect(outcomes.map(\.failure) == [nil])
        let expected = lines("ctx", .context) + lines("customer", .customer) + lines("entry", .subscriptionEntry)
        #expect(outcomes.first?.output == expected.sorted())
    }

    @Test func theJSONInputKnowsEveryDeclaredFieldAndNoOther() {
        func known(_ json: String) -> [String] {
            do {
                _ = try PolicyContext.decode(json: Data(json.utf8))
            } catch {
                if case .unknownField(_, _, let known) = error { return known }
                return ["refused otherwise: \(error.description)"]
            }
            return ["accepted"]
        }
        // `ctx.catalog` is the engine's own catalog, never a part of the input.
        #expect(known(#"{"unheard_of": 1}"#) == ContextTable.context.fieldNames.filter { $0 != "catalog" })
        #expect(known(#"{"customer": {"unheard_of": 1}}"#) == ContextTable.customer.fieldNames)
        #expect(known(#"{"customer": {"subscriptions": {"PASS": {"product_id": "pass.premium", "unheard_of": 1}}}}"#)
                == ContextTable.subscriptionEntry.fieldNames)
    }

    @Test func theStrictTablesAreNamedAsTheirErrorsNameThem() {
        #expect(ContextTable.context.name == "ctx")
        #expect(ContextTable.customer.name == "ctx.customer")
        #expect(ContextTable.subscriptionEntry.name == "a subscription entry of ctx.customer.subscriptions")
        #expect(ContextTable.subscriptionEntry.fields.filter { !$0.alwaysPresent }.map(\.name) == ["expiration_date"])
    }
}
