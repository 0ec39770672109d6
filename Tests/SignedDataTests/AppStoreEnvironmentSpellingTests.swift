import SignedData
import Testing

/// The one reading of an environment's name as people type it.
@Suite struct AppStoreEnvironmentSpellingTests {
    @Test("every known environment reads in any letter case; an unknown name reads as none")
    func spellings() {
        #expect(AppStoreEnvironment(spelling: "sandbox") == .sandbox)
        #expect(AppStoreEnvironment(spelling: "PRODUCTION") == .production)
        #expect(AppStoreEnvironment(spelling: "Xcode") == .xcode)
        #expect(AppStoreEnvironment(spelling: "localtesting") == .localTesting)
        #expect(AppStoreEnvironment(spelling: "Staging") == nil)
        #expect(AppStoreEnvironment.knownSpellings == "Sandbox, Production, Xcode or LocalTesting")
    }
}
