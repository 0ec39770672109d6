import Foundation
import StoreJourneys
@testable import StorePolicy
import Testing
import TestPrerequisites

@Suite struct PolicyREPLFailureTests {
    private static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/BackyardBirds")

    /// A session on a folder holding `policy`, with Backyard Birds' catalog when `catalog` is true.
    private func session(_ policy: String = "return {}", catalog: Bool = false) throws -> (PolicyREPL, URL) {
        let folder = try TestFolders.make("repl")
        try policy.write(to: folder.appendingPathComponent("policy.lua"), atomically: true, encoding: .utf8)
        if catalog {
            try FileManager.default.copyItem(at: Self.examples.appendingPathComponent("Products.storekit"),
                                             to: folder.appendingPathComponent("Products.storekit"))
        }
        return (try PolicyREPL(folder: PolicyFolder(folder)), folder)
    }

    @Test("an error raised for the caller of a typed line is located at the input's line, never in the REPL's code")
    func errorsNameTheInputLine() throws {
        let (repl, _) = try session(catalog: true)
        #expect(repl.handle("error('boom', 2)") == .output("runtime error at input:1: boom"))
        #expect(repl.handle("product('nope')") == .output("runtime error at input:1: no product 'nope' in the catalog"))
        #expect(repl.handle("expect_eq(1, 2)") == .output("runtime error at input:1: expected 1, got 2"))
        #expect(repl.handle("local found = group('nope')") == .output("runtime error at input:1: no subscription group 'nope' in the catalog"))
    }

    @Test("an error in a statement spanning lines names the line it is on")
    func multiLineErrorsNameTheirLine() throws {
        let (repl, _) = try session()
        #expect(repl.handle("for i = 1, 2 do") == .needsMoreInput)
        #expect(repl.handle("  print(i)") == .needsMoreInput)
        #expect(repl.handle("  local y = nil + i") == .needsMoreInput)
        #expect(repl.handle("end") == .output("1\nruntime error at input:3: attempt to perform arithmetic on a nil value"))
        #expect(repl.handle("return 1,") == .needsMoreInput)
        #expect(repl.handle("  'two' -- a comment") == .output("1\n\"two\""))
        #expect(repl.handle("1 + 1 -- a comment") == .output("2"))
    }

    @Test("the session remembers that a line failed, and not before")
    func failuresAreRemembered() throws {
        let (repl, _) = try session()
        _ = repl.handle("1 + 1")
        _ = repl.handle(":ctx balance pellet 3")
        _ = repl.handle(":help")
        #expect(!repl.anyLineFailed)
        _ = repl.handle("nosuch.field")
        #expect(repl.anyLineFailed)
        _ = repl.handle("return 7")
        #expect(repl.anyLineFailed)
    }

    @Test("syntax errors, unknown commands and failed commands count as failed lines")
    func failedCommandsCount() throws {
        for line in ["1 +* 2", ":frobnicate", ":ctx balance pellet many", ":ctx set cohort {", ":buy pellet.box", ":trace maybe"] {
            let (repl, _) = try session()
            _ = repl.handle(line)
            #expect(repl.anyLineFailed, "\(line)")
        }
    }

    @Test(":reload retries the customer's unfinished grants with the new policy, as a journey's reload step does")
    func reloadRetriesUnfinishedGrants() throws {
        let (repl, folder) = try session("return { grant = function(ctx, tx, product) error('no rule yet') end }", catalog: true)
        guard case .output(let bought) = repl.handle(":buy pellet.box") else { Issue.record("expected output"); return }
        #expect(bought.contains("unfinished"), "\(bought)")
        #expect(repl.context.customer.balances["pellet"] == nil)
        try "return { grant = function(ctx, tx, product) return { { item = 'pellet', amount = 5 * tx.quantity } } end }"
            .write(to: folder.appendingPathComponent("policy.lua"), atomically: true, encoding: .utf8)
        guard case .output(let reloaded) = repl.handle(":reload") else { Issue.record("expected output"); return }
        #expect(reloaded.hasPrefix("reloaded policy.lua"), "\(reloaded)")
        #expect(reloaded.contains("(pellet.box): granted +5 pellet"), "\(reloaded)")
        #expect(repl.context.customer.balances["pellet"] == 5)
        #expect(repl.handle("ctx.customer.balances.pellet") == .output("5"))
        guard case .output(let again) = repl.handle(":reload") else { Issue.record("expected output"); return }
        #expect(!again.contains("retried"), "\(again)")
    }
}
