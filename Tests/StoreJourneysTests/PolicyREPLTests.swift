import Foundation
import StoreJourneys
@testable import StorePolicy
import Testing
import TestPrerequisites

@Suite struct PolicyREPLTests {
    private func session(_ policy: String = "return { plan_icon = function(ctx, plan) return 'bird' end }") throws -> (PolicyREPL, URL) {
        let folder = try TestFolders.make("repl")
        try policy.write(to: folder.appendingPathComponent("policy.lua"), atomically: true, encoding: .utf8)
        return (try PolicyREPL(folder: PolicyFolder(folder)), folder)
    }

    @Test func expressionsPrintAsLuaTables() throws {
        let (repl, _) = try session()
        #expect(repl.handle("1 + 1") == .output("2"))
        #expect(repl.handle("{ b = 2, a = { 1, 'x' } }") == .output("{ a = { 1, \"x\" }, b = 2 }"))
        #expect(repl.handle("local x = 3") == .output(""))
    }

    @Test func statementsMaySpanLines() throws {
        let (repl, _) = try session()
        #expect(repl.handle("for i = 1, 2 do") == .needsMoreInput)
        #expect(repl.prompt.hasSuffix("... "))
        #expect(repl.handle("  print(i)") == .needsMoreInput)
        #expect(repl.handle("end") == .output("1\n2"))
    }

    @Test func anErrorPrintsAndThePromptStays() throws {
        let (repl, _) = try session()
        guard case .output(let text) = repl.handle("error('boom')") else { Issue.record("expected output"); return }
        #expect(text == "runtime error at input:1: boom")
        #expect(repl.handle("while true do end").isOutput)
        #expect(repl.handle("return 7") == .output("7"))
    }

    @Test func contextCommandsChangeWhatHooksSee() throws {
        let (repl, _) = try session("return { show_merchandising = function(ctx, placement) return next(ctx.customer.entitlements) == nil end }")
        #expect(repl.handle("decide('show_merchandising', 'home')") == .output("true"))
        _ = repl.handle(":ctx entitle anything")
        _ = repl.handle(":ctx set cohort \"B\"")
        #expect(repl.handle("ctx.customer.attributes.cohort") == .output("\"B\""))
        _ = repl.handle(":ctx known off")
        #expect(repl.handle("decide('show_merchandising', 'home')") == .output("true"))
    }

    @Test func reloadSwapsThePolicyAndABrokenEditKeepsTheOld() throws {
        let (repl, folder) = try session()
        #expect(repl.handle("policy.plan_icon(ctx, {})") == .output("\"bird\""))
        try "return { plan_icon = function(ctx, plan) return 'star' end }".write(to: folder.appendingPathComponent("policy.lua"), atomically: true, encoding: .utf8)
        #expect(repl.reloadIfChanged()?.hasPrefix("reloaded policy.lua") == true)
        #expect(repl.handle("policy.plan_icon(ctx, {})") == .output("\"star\""))
        try "return { plan_icon = ".write(to: folder.appendingPathComponent("policy.lua"), atomically: true, encoding: .utf8)
        #expect(repl.reloadIfChanged()?.contains("keeps serving") == true)
        #expect(repl.handle("policy.plan_icon(ctx, {})") == .output("\"star\""))
        #expect(repl.handle(":quit") == .quit)
    }
}

extension PolicyREPL.Response {
    var isOutput: Bool { if case .output = self { return true } else { return false } }
}
