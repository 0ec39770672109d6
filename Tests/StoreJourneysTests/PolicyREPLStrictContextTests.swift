import Foundation
import StoreJourneys
@testable import StorePolicy
import Testing
import TestPrerequisites

@Suite struct PolicyREPLStrictContextTests {
    private static let birds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/BackyardBirds")

    /// A policy whose `features` hook reads a field `ctx.customer` does not have.
    private static let misspelling = "return { features = function(ctx) return ctx.customer.subscription end }"

    /// A session on a folder holding `policy` and Backyard Birds' catalog.
    private func session(_ policy: String) throws -> PolicyREPL {
        let folder = try TestFolders.make("repl")
        try policy.write(to: folder.appendingPathComponent("policy.lua"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: Self.birds.appendingPathComponent("Products.storekit"),
                                         to: folder.appendingPathComponent("Products.storekit"))
        return try PolicyREPL(folder: PolicyFolder(folder))
    }

    @Test func readingAFieldTheReplsCtxLacksRaisesTheErrorAHookGets() throws {
        let repl = try session(Self.misspelling)
        let message = "ctx.customer has no field 'subscription' (did you mean 'subscriptions'?)"
        #expect(repl.handle("ctx.customer.subscription") == .output("runtime error at input:1: " + message))
        guard case .output(let hookFailure) = repl.handle("decide('features')") else { Issue.record("expected output"); return }
        #expect(hookFailure.hasSuffix("features (policy.lua:1): error: " + message), "the hook's own failure says the same")
        #expect(repl.handle("ctx.storefrnt") == .output("runtime error at input:1: ctx has no field 'storefrnt' (did you mean 'storefront'?)"))
        #expect(repl.anyLineFailed)
    }

    @Test func aSubscriptionEntryOfTheReplsCtxIsStrictAndKnownFieldsStillRead() throws {
        let repl = try session("return {}")
        _ = repl.handle(":ctx subscribe pass.individual")
        #expect(repl.handle("ctx.customer.subscriptions['6F3A93AB'].group_level") == .output("3"))
        #expect(repl.handle("ctx.customer.subscriptions['6F3A93AB'].grup_level")
                == .output("runtime error at input:1: a subscription entry of ctx.customer.subscriptions has no field 'grup_level' (did you mean 'group_level'?)"))
        #expect(repl.handle("ctx.customer.attributes.anything") == .output("nil"), "the tables keyed by data stay open")
        _ = repl.handle(":ctx customer watcher-2")
        #expect(repl.handle("ctx.customer.id") == .output("\"watcher-2\""), "a changed context is strict and current")
        #expect(repl.handle("ctx.customer.ids") == .output("runtime error at input:1: ctx.customer has no field 'ids' (did you mean 'id'?)"))
    }
}
