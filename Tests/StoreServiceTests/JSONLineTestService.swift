import Foundation
import StoreCore
import StoreService
import StoreTesting
import SQLiteLedger

/// The JSON-lines protocol over a service in process, as the `PolicyService` example serves it
/// on its standard input: a temporary copy of the Backyard Birds folder, a new SQLite ledger,
/// and a signing authority made for the test whose root it trusts.
final class JSONLineTestService {
    static let authority: SigningAuthority = {
        do {
            return try SigningAuthority.generate()
        } catch {
            fatalError("cannot generate the test signing authority: \(error)")
        }
    }()
    static let otherAuthority: SigningAuthority = {
        do {
            return try SigningAuthority.generate(name: "Untrusted")
        } catch {
            fatalError("cannot generate the untrusted signing authority: \(error)")
        }
    }()

    let folder: ExampleFolderCopy
    let lines: JSONLineProtocol
    private var lastID = 0

    init() throws {
        folder = try ExampleFolderCopy()
        lines = JSONLineProtocol(service: try Service(configuration: ServiceConfiguration(
            folder: folder.url.path, ledger: SQLiteLedgerFile(path: folder.url.appending(path: "ledger.sqlite").path),
            rootCertificates: [Self.authority.rootCertificate], bundleId: BackyardBirdsPayloads.bundleID, environment: .sandbox)))
    }

    deinit {
        folder.remove()
    }

    /// `payload` signed by the trusted authority (or by `authority`).
    static func sign<Payload: SignedPayload>(_ payload: Payload, by authority: SigningAuthority = authority) throws -> String {
        try authority.sign(payload)
    }

    /// The reply to one raw line, as a JSON object.
    func reply(line: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(lines.reply(to: Data(line.utf8)).utf8)) as? [String: Any] ?? [:]
    }

    /// The reply to `request` sent with a new integer id.
    func request(_ request: [String: Any]) throws -> [String: Any] {
        lastID += 1
        var request = request
        request["id"] = lastID
        return try reply(line: String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self))
    }

    /// The `"result"` of `request`'s reply, failing when the reply is an error.
    func result(_ request: [String: Any]) throws -> [String: Any] {
        let reply = try self.request(request)
        guard let result = reply["result"] as? [String: Any] else { throw ReplyWasAnError(reply: "\(reply)") }
        return result
    }

    /// The folder's `policy.lua`.
    func policy() throws -> String {
        try String(contentsOf: folder.url.appending(path: "policy.lua"), encoding: .utf8)
    }

    /// Replaces the folder's `policy.lua`.
    func writePolicy(_ text: String) throws {
        try text.write(to: folder.url.appending(path: "policy.lua"), atomically: true, encoding: .utf8)
    }

    /// A reply that was an error where a result was expected.
    struct ReplyWasAnError: Error, CustomStringConvertible {
        let reply: String
        var description: String { "the reply is an error: \(reply)" }
    }
}
