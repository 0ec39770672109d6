import Foundation
import Testing
@testable import StoreCore

/// A ledger's file remembers the bundle identifier and environment its store signs as.
@Suite struct LocalStoreIdentityTests {
    @Test("the first store's identity is remembered, and a store of another one is refused")
    func theIdentityIsRememberedAndEnforced() throws {
        let harness = try StoreHarness()
        let (ledger, _) = try harness.reopened()
        #expect(try LocalStore.rememberedIdentity(in: ledger)
            == LocalStore.Identity(bundleID: StoreHarness.bundleID, environment: .xcode))
        let other = LocalStore.Configuration(bundleID: StoreHarness.bundleID, environment: .sandbox)
        #expect(throws: LocalStoreError.identityMismatch(
            remembered: LocalStore.Identity(bundleID: StoreHarness.bundleID, environment: .xcode),
            given: LocalStore.Identity(bundleID: StoreHarness.bundleID, environment: .sandbox))) {
            try LocalStore(catalog: harness.store.catalog, authority: harness.store.authority, ledger: ledger,
                           configuration: other, decide: StoreHarness.grants)
        }
    }

    @Test("a ledger no store opened remembers nothing")
    func aFreshLedgerRemembersNothing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString).sqlite").path
        #expect(try LocalStore.rememberedIdentity(in: Ledger(path: path)) == nil)
    }
}
