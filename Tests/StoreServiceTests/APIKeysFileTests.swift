import Foundation
import StoreService
import Testing

/// Keys files as operators write them: empty ones refused, CRLF line ends read, what a load
/// holds said without a key, and files others may read warned of.
@Suite struct APIKeysFileTests {
    @Test("a keys file with no keys is refused", arguments: ["", "\n\n", "# only a comment\n", "  \r\n# x\r\n"])
    func noKeysIsRefused(text: String) {
        #expect(throws: APIKeyringError.self) { try APIKeyring(text: text) }
    }

    @Test("CRLF line ends are line ends")
    func crlfLines() throws {
        let keyring = try APIKeyring(text: "app app-key-0123456789abcdef\r\nadmin admin-key-0123456789abc\r\n")
        #expect(keyring.role(of: "app-key-0123456789abcdef") == .app)
        #expect(keyring.role(of: "admin-key-0123456789abc") == .admin)
    }

    @Test("a keyring says how many keys of each role it holds, never a key")
    func summaryHoldsNoKey() throws {
        let keyring = try APIKeyring(text: "app app-key-0123456789abcdef\napp app-key-0123456789abcdeg\n")
        #expect(keyring.summary == "2 app keys, 0 admin keys")
    }

    @Test("a keys file its group or others may read is warned of; one only its owner reads is not")
    func permissions() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "app app-key-0123456789abcdef\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        #expect(APIKeyring.permissionWarning(forFileAt: path)?.contains("chmod 600") == true)
        chmod(path, 0o600)
        #expect(APIKeyring.permissionWarning(forFileAt: path) == nil)
    }

    @Test("reloading a file that lost its keys keeps the keys in use")
    func reloadKeepsKeys() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "app app-key-0123456789abcdef\n".write(toFile: path, atomically: true, encoding: .utf8)
        let access = try AccessControl(keysAt: path)
        try "# emptied by mistake\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: APIKeyringError.self) { try access.reloadKeys() }
        #expect(access.verdict(authorization: "Bearer app-key-0123456789abcdef", for: .app) == .allowed)
    }

    @Test("a keys path that is a folder, or missing, says so in plain words")
    func unreadablePaths() {
        let folder = FileManager.default.temporaryDirectory.path
        #expect(throws: APIKeyringError.self) { try APIKeyring(contentsOf: folder) }
        #expect((try? APIKeyring(contentsOf: folder)) == nil)
        do {
            _ = try APIKeyring(contentsOf: folder)
            Issue.record("a folder is read as a keys file")
        } catch {
            #expect(error.description.contains("is a folder, not a keys file"), "\(error)")
        }
        do {
            _ = try APIKeyring(contentsOf: folder + "/no-such-keys-\(UUID().uuidString)")
            Issue.record("a missing keys file is read as one")
        } catch {
            #expect(error.description.contains("does not exist"), "\(error)")
        }
    }
}
