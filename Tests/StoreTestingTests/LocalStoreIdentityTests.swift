import Foundation
@testable import StoreCore
import SQLiteLedger
@testable import StoreTesting
import Testing

/// A store's state remembers the bundle identifier and environment the store signs as.
@Suite struct LocalStoreIdentityTests {
    @Test("the first store's identity is remembered, and a store of another one is refused")
    func theIdentityIsRememberedAndEnforced() throws {
        let harness = try StoreHarness()
        let (ledger, reopened) = try harness.reopened()
        #expect(try LocalStore.rememberedIdentity(in: reopened.state)
            == LocalStore.Identity(bundleID: StoreHarness.bundleID, environment: .xcode))
        let other = LocalStore.Configuration(bundleID: StoreHarness.bundleID, environment: .sandbox)
        #expect(throws: LocalStoreError.identityMismatch(
            remembered: LocalStore.Identity(bundleID: StoreHarness.bundleID, environment: .xcode),
            given: LocalStore.Identity(bundleID: StoreHarness.bundleID, environment: .sandbox))) {
            try LocalStore(catalog: harness.store.catalog, authority: harness.store.authority, ledger: ledger,
                           state: reopened.state, configuration: other, decide: StoreHarness.grants)
        }
    }

    @Test("a store state no store opened remembers nothing")
    func aFreshStateRemembersNothing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString).sqlite").path
        #expect(try LocalStore.rememberedIdentity(in: Database(path: path)) == nil)
    }
}
