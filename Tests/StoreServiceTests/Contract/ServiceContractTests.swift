import Foundation
import StoreCore
@testable import StoreService
import Testing

/// The OpenAPI document is the router's: every route it serves is an operation with its role,
/// and no other; `GET /openapi.json` serves it, without a key.
@Suite struct ServiceContractTests {
    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: ServiceContract.openAPIDocument) as? [String: Any])
    }

    /// Each operation of the document as `METHOD /path`, with its `x-storerules-role`.
    static func operations() throws -> [String: String] {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        var operations: [String: String] = [:]
        for (path, item) in paths {
            for (method, operation) in item where ["get", "post", "put", "delete", "patch"].contains(method) {
                let role = (operation as? [String: Any])?["x-storerules-role"] as? String ?? "(missing)"
                operations["\(method.uppercased()) \(path)"] = role
            }
        }
        return operations
    }

    @Test func theDocumentIsOpenAPI31() throws {
        let document = try Self.document()
        #expect(document["openapi"] as? String == "3.1.0")
        #expect((document["info"] as? [String: Any])?["title"] as? String == "StoreRules service")
    }

    @Test func everyRouteIsAnOperationWithItsRoleAndNoOtherOperationIs() throws {
        let operations = try Self.operations()
        let routes = Dictionary(uniqueKeysWithValues: HTTPRouter.table.map { ("\($0.method) \($0.pattern)", $0.role?.rawValue ?? "none") })
        #expect(Set(operations.keys) == Set(routes.keys),
                "not in the document: \(Set(routes.keys).subtracting(operations.keys).sorted()); not served: \(Set(operations.keys).subtracting(routes.keys).sorted())")
        for (route, role) in routes {
            #expect(operations[route] == role, "\(route)'s role")
        }
    }

    @Test func everyOutgoingEventTypeIsAWebhookAndNoOtherIs() throws {
        let webhooks = try #require(try Self.document()["webhooks"] as? [String: Any])
        #expect(Set(webhooks.keys) == Set(OutgoingEventType.allCases.map(\.rawValue)))
    }

    @Test func theServiceServesTheDocumentToAnyClient() throws {
        try RouterTestService.test { service in
            let answer = service.respond("GET", "/openapi.json", key: nil)
            #expect(answer.status == 200)
            #expect(answer.headers["Content-Type"] == "application/json")
            #expect(answer.bodyText == ServiceContract.openAPIText)
        }
    }
}
