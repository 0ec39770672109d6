import AppStoreServerAPI
import Foundation
import StoreTesting
import Testing

/// docs/app-store-api.md names the endpoints of Apple's that the local store does not serve —
/// Finish Transaction and the Retention Messaging API's management calls — and each one it
/// names is answered as the page says: `404` with `errorCode` 4000000, by a store that accepts
/// the request's token.
@Suite struct UnservedEndpointsTests {
    /// The "Not served." paragraph of the local store's section.
    static func notServedParagraph() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appending(path: "docs/app-store-api.md"), encoding: .utf8)
        guard let section = page.range(of: "## The local store serves the API"),
              let start = page.range(of: "**Not served.**", range: section.upperBound..<page.endIndex) else { return "" }
        let rest = page[start.upperBound...]
        let end = rest.range(of: "\n- ")?.lowerBound ?? rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test("every endpoint the page says the local store does not serve is answered 404 with 4000000")
    func namedEndpointsAreNotServed() throws {
        let paragraph = try Self.notServedParagraph()
        let endpoints = paragraph.matches(of: /`(GET|PUT|POST|DELETE)\s+(\/inApps\/[^`\s]+)`/).map { (String($0.1), String($0.2)) }
        #expect(endpoints.contains { $0 == ("POST", "/inApps/v1/transactions/{transactionId}/finish") }, "\(paragraph)")
        #expect(endpoints.filter { $0.1.hasPrefix("/inApps/v1/messaging/") }.count == 14, "\(endpoints)")
        let harness = try APIStoreHarness()
        let id = try harness.buy("pellet.box")
        let token = try AuthenticationTokenIssuer(key: harness.key, bundleID: APIStoreHarness.bundleID).token()
        for (method, template) in endpoints {
            let path = template.replacing(/\{[A-Za-z]+\}/, with: id)
            let answer = harness.api.respond(to: AppStoreServerAPIRequest(method: method, path: path, body: Data("{}".utf8)),
                                             authorization: "Bearer \(token)")
            let body = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
            #expect(answer.status == 404 && body?["errorCode"] as? Int == 4_000_000, "\(method) \(path): \(answer.status) \(body ?? [:])")
        }
    }
}
