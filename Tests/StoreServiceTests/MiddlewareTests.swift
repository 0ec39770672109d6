import Foundation
import StoreCore
import SQLiteLedger
@testable import StoreService
import Synchronization
import Testing

/// Each middleware of the router's chain on its own, and the chain over a real service.
@Suite struct MiddlewareTests {
    private static func passing(_ status: Int = 200) -> HTTPResponder {
        { _, _ throws(HTTPError) in HTTPResponse(status: status) }
    }

    @Test("a short printable X-Request-Id is kept; anything else is replaced by a new id, never echoed",
          arguments: [("abc-123_x.y:z", true), ("a b", false), ("line\r\nX-Forged: 1", false), ("", false),
                      (String(repeating: "a", count: 129), false), (String(repeating: "a", count: 128), true), ("ünï", false)])
    func requestIDs(header: String, kept: Bool) {
        let id = RequestIDMiddleware.id(from: header)
        #expect((id == header) == kept)
        if !kept { #expect(UUID(uuidString: id) != nil) }
    }

    @Test("the request id is echoed in every response, errors included, and goes to the decision log")
    func requestIDEchoed() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        var request = HTTPRequest(method: "GET", path: "/v1/nothing", headers: ["X-Request-Id": "trace-42"])
        #expect(service.router.respond(to: request).headers["X-Request-Id"] == "trace-42")
        request.headers["x-request-id"] = "bad id\n"
        let replaced = service.router.respond(to: request).headers["X-Request-Id"]
        #expect(replaced != nil && replaced != "bad id\n")
        #expect(service.router.respond(to: HTTPRequest(method: "GET", path: "/healthz")).headers["X-Request-Id"] != nil)
    }

    @Test("an error becomes the JSON error body with its headers; its detail goes to the log with the request id, not the body")
    func errorRendering() throws {
        let lines = Mutex<[String]>([])
        let renderer = ErrorRenderingMiddleware { line in lines.withLock { $0.append(line) } }
        var context = HTTPRequestContext(requestID: "r-1")
        let failure = ServiceError.storageFailed(LedgerStorageFailure(message: "could not connect to server db.internal:5432 as pw", isTransient: false))
        let response = try renderer.respond(to: HTTPRequest(method: "GET", path: "/x"), context: &context) { _, _ throws(HTTPError) in
            throw HTTPError(failure)
        }
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] != nil)
        #expect(response.headers["Content-Type"] == "application/json")
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(!body.contains("db.internal") && !body.contains("5432"))
        #expect(lines.withLock { $0 }.contains { $0.contains("r-1") && $0.contains("db.internal:5432") })
    }

    @Test("strict decoding hands the routes decoded segments and query values, and refuses bad escapes")
    func pathDecoding() throws {
        var context = HTTPRequestContext(requestID: "r")
        let seen = Mutex<HTTPRequest?>(nil)
        _ = try PathDecodingMiddleware().respond(
            to: HTTPRequest(method: "GET", path: "/v1/customers/ana%20b%C3%A9", query: ["placement": "h%6Fme"]), context: &context
        ) { request, _ throws(HTTPError) in
            seen.withLock { $0 = request }
            return HTTPResponse(status: 200)
        }
        #expect(seen.withLock { $0?.path } == "/v1/customers/ana bé")
        #expect(seen.withLock { $0?.query["placement"] } == "home")
        #expect(throws: HTTPError.self) {
            try PathDecodingMiddleware().respond(to: HTTPRequest(method: "GET", path: "/a%00b"), context: &context, next: Self.passing())
        }
    }

    @Test("routing is 404 for an unknown path and 405 with Allow (HEAD beside GET) for another method; HEAD finds GET")
    func routing() throws {
        let routing = RoutingMiddleware(routes: HTTPRouter.table)
        var context = HTTPRequestContext(requestID: "r")
        #expect(throws: HTTPError.self) { try routing.respond(to: HTTPRequest(method: "GET", path: "/nope"), context: &context, next: Self.passing()) }
        do {
            _ = try routing.respond(to: HTTPRequest(method: "DELETE", path: "/healthz"), context: &context, next: Self.passing())
            Issue.record("DELETE /healthz was routed")
        } catch {
            #expect(error.status == 405)
            #expect(error.headers["Allow"] == "GET, HEAD")
        }
        _ = try routing.respond(to: HTTPRequest(method: "HEAD", path: "/v1/customers/ana"), context: &context, next: Self.passing())
        #expect(context.route?.pattern == "/v1/customers/{id}")
        #expect(context.parameters == ["ana"])
    }

    @Test("limits refuse an oversized body with 413 and a stray query argument with 400 naming the nearest")
    func limits() throws {
        var context = HTTPRequestContext(requestID: "r")
        context.route = HTTPRouter.table.first { $0.pattern == "/v1/customers/{id}/storefront" }
        let limits = RequestLimitsMiddleware()
        do {
            _ = try limits.respond(to: HTTPRequest(method: "GET", path: "/", query: ["placment": "x"]), context: &context, next: Self.passing())
            Issue.record("a stray argument passed")
        } catch {
            #expect(error.status == 400)
            #expect(error.message.contains("placement"))
        }
        do {
            let huge = Data(count: HTTPRouter.maximumBodyBytes + 1)
            _ = try limits.respond(to: HTTPRequest(method: "GET", path: "/", body: huge), context: &context, next: Self.passing())
            Issue.record("an oversized body passed")
        } catch {
            #expect(error.status == 413)
        }
    }

    @Test("metrics count every answer, errors included, under the matched route's pattern")
    func metricsCountErrors() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        _ = service.respond("GET", "/v1/customers/nobody")
        _ = service.respond("GET", "/v1/customers/a%00b")
        let exposition = service.router.metrics.exposition(unfinishedTransactions: nil, policyVersion: "v")
        #expect(exposition.contains(#"storerules_http_requests_total{route="/v1/customers/{id}",method="GET",status="404"} 1"#))
        #expect(exposition.contains(#"storerules_http_requests_total{route="unmatched",method="GET",status="400"} 1"#))
    }

    @Test("when the ledger's storage fails every route is 503 with Retry-After, and no body carries the driver's message")
    func storageFailuresAre503Everywhere() throws {
        let lines = Mutex<[String]>([])
        let service = try RouterTestService { line in lines.withLock { $0.append(line) } }
        defer { service.cleanUp() }
        let database = try #require(service.router.service.ledger.sqliteDatabase)
        try database.write { try $0.execute(script: "DROP TABLE merchandising_event; DROP TABLE balance; DROP TABLE pending_notification; DROP TABLE customer;") }
        let token = #"{"app_account_token": "5b1f7a3e-8d6c-4f2a-9e1b-2c3d4e5f6a7b"}"#
        for (method, path, body) in [("GET", "/v1/customers/ana/storefront", ""), ("GET", "/v1/customers/ana", ""),
                                     ("POST", "/v1/customers/ana/events", #"{"name": "paywall_shown"}"#),
                                     ("POST", "/v1/decisions/features", #"{"customer": "ana"}"#),
                                     ("PUT", "/v1/customers/ana", token)] {
            let response = service.respond(method, path, body: body)
            #expect(response.status == 503, "\(method) \(path): \(String(decoding: response.body, as: UTF8.self))")
            #expect(response.headers["Retry-After"] != nil, "\(method) \(path)")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(!text.contains("no such table") && !text.contains(".sqlite"), "\(method) \(path): \(text)")
        }
        #expect(lines.withLock { $0 }.contains { $0.contains("no such table") })
        let ready = service.respond("GET", "/readyz", key: nil)
        #expect(ready.status == 503, "\(String(decoding: ready.body, as: UTF8.self))")
        #expect(ready.headers["Retry-After"] != nil)
        #expect(!String(decoding: ready.body, as: UTF8.self).contains(".sqlite"))
    }

    @Test("a blank body reads as an empty object where one may be left out; a route that reads no body refuses one")
    func blankAndUnwantedBodies() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        #expect(service.respond("PUT", "/v1/customers/ana", body: " \n").status == 200)
        #expect(service.respond("POST", "/v1/decisions/show_merchandising", body: "  ").status == 200)
        let garbage = service.respond("POST", "/v1/admin/retry-unfinished", key: RouterTestService.adminKey, body: "garbage")
        #expect(garbage.status == 400)
        #expect(String(decoding: garbage.body, as: UTF8.self).contains("takes no body"))
        #expect(service.respond("POST", "/v1/admin/retry-unfinished", key: RouterTestService.adminKey).status == 200)
    }

    @Test("every 503 says when to try again: 5 s after a storage failure, 1 s after a transaction that kept changing")
    func everyUnavailableAnswerCarriesRetryAfter() {
        let storage = HTTPError(.storageFailed(LedgerStorageFailure(message: "disk gone", isTransient: true)))
        #expect(storage.status == 503 && storage.headers["Retry-After"] == "5")
        let outpaced = HTTPError(.ledgerRefused(.decisionOutpaced(transactionID: "7", attempts: 4)))
        #expect(outpaced.status == 503 && outpaced.headers["Retry-After"] == "1")
        #expect(HTTPError(.badRequest("no")).headers["Retry-After"] == nil)
    }
}
