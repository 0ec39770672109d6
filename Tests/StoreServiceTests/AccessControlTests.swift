import Testing
@testable import StoreService

@Suite struct AccessControlTests {
    @Test(arguments: [
        ("Bearer key-1", "key-1"), ("bearer key-1", "key-1"), ("BEARER   key-1  ", "key-1"), ("  Bearer key-1", "key-1"),
        ("Bearer key with spaces", "key with spaces"),
    ])
    func aBearerTokenIsReadInAnyCaseWithoutTheBlanksAroundIt(header: String, token: String) {
        #expect(AccessControl.bearerToken(header) == token)
    }

    @Test(arguments: ["Basic a2V5", "Bearer", "Bearer ", "Bearer    ", "Bearerkey-1", "Bearer\tkey-1", "", "Béarer key-1"])
    func anythingElseHasNoToken(header: String) {
        #expect(AccessControl.bearerToken(header) == nil)
    }

    @Test func aKeyIsAllowedForItsOwnRoleOnlyAndUnknownKeysAreUnauthenticated() throws {
        let access = AccessControl(keyring: try APIKeyring(text: "app app-key-0123456789\nadmin admin-key-0123456789\n"))
        #expect(access.verdict(authorization: "Bearer app-key-0123456789", for: .app) == .allowed)
        #expect(access.verdict(authorization: "Bearer app-key-0123456789", for: .admin) == .forbidden(.app))
        #expect(access.verdict(authorization: "Bearer app-key-012345678", for: .app) == .unauthenticated)
        #expect(access.verdict(authorization: nil, for: .app) == .unauthenticated)
        #expect(AccessControl.unauthenticated.verdict(authorization: nil, for: .admin) == .allowed)
    }

    @Test func aKeysFileWithAMistakeNamesTheLineAndTheProblem() {
        #expect(throws: APIKeyringError.self) { try APIKeyring(text: "admn admin-key-0123456789\n") }
        do {
            _ = try APIKeyring(text: "# keys\napp app-key-0123456789\nadmn admin-key-0123456789\n")
            Issue.record("a misspelled role was accepted")
        } catch {
            #expect(error.line == 3)
            #expect(error.problem.contains("did you mean 'admin'"))
        }
        #expect(throws: APIKeyringError.self) { try APIKeyring(text: "app short\n") }
        #expect(throws: APIKeyringError.self) { try APIKeyring(text: "app app-key-0123456789\nadmin app-key-0123456789\n") }
    }
}
