import Foundation
import StoreService
import Testing

/// Who may read the operator page: the `admin` key as `Bearer`, or as the password of HTTP
/// Basic credentials a browser's prompt sends — Basic only through TLS or over loopback, and
/// only on the page's routes.
@Suite struct OperatorPageSignInTests {
    static let loopback = "127.0.0.1"
    static let elsewhere = "203.0.113.9"

    static func basic(user: String = "operator", _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    static func page(_ service: RouterTestService, path: String = "/admin", authorization: String?, from address: String? = loopback,
                     encrypted: Bool = false) -> HTTPResponse {
        let headers = authorization.map { ["Authorization": $0] } ?? [:]
        let request = HTTPRequest(method: "GET", path: path, headers: headers, clientAddress: address, isEncrypted: encrypted)
        let response = service.router.respond(to: request)
        ContractExchanges.record(request, response)
        return response
    }

    @Test("a browser on this machine is asked for the key, signs in with it as the password, and is refused a wrong one")
    func basicOverLoopback() throws {
        try RouterTestService.test { service in
            let asked = Self.page(service, authorization: nil)
            #expect(asked.status == 401)
            #expect(asked.headers["WWW-Authenticate"] == #"Basic realm="StoreRules""#)
            let signedIn = Self.page(service, authorization: Self.basic(RouterTestService.adminKey))
            #expect(signedIn.status == 200, "\(signedIn.bodyText)")
            #expect(signedIn.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(Self.page(service, authorization: Self.basic(user: "", RouterTestService.adminKey)).status == 200, "any user name")
            #expect(Self.page(service, authorization: Self.basic(RouterTestService.adminKey), from: "::1").status == 200)
            let wrong = Self.page(service, authorization: Self.basic(RouterTestService.adminKey + "x"))
            #expect(wrong.status == 401)
            #expect(wrong.headers["WWW-Authenticate"] == #"Basic realm="StoreRules""#)
            #expect(Self.page(service, authorization: Self.basic(RouterTestService.appKey)).status == 403, "an app key is not an admin key")
            #expect(Self.page(service, authorization: "Basic not-base64!").status == 401)
        }
    }

    @Test("over plain HTTP from another machine the page takes only Bearer and never asks a browser for the key")
    func basicOnlyWhereTheKeyDoesNotTravelInClear() throws {
        try RouterTestService.test { service in
            let refused = Self.page(service, authorization: Self.basic(RouterTestService.adminKey), from: Self.elsewhere)
            #expect(refused.status == 401)
            #expect(refused.headers["WWW-Authenticate"] == "Bearer")
            #expect(refused.errorMessage?.contains("only over TLS or from this machine") == true, "\(refused.bodyText)")
            #expect(Self.page(service, authorization: Self.basic(RouterTestService.adminKey), from: nil).status == 401,
                    "a request whose client is not known is not private")
            #expect(Self.page(service, authorization: Self.basic(RouterTestService.adminKey), from: Self.elsewhere, encrypted: true).status == 200)
            #expect(Self.page(service, authorization: "Bearer \(RouterTestService.adminKey)", from: Self.elsewhere).status == 200)
        }
    }

    @Test("the API keeps Bearer: Basic credentials on another admin route are refused even over loopback")
    func theAPITakesOnlyBearer() throws {
        try RouterTestService.test { service in
            let policy = Self.page(service, path: "/v1/admin/policy", authorization: Self.basic(RouterTestService.adminKey))
            #expect(policy.status == 401)
            #expect(policy.headers["WWW-Authenticate"] == "Bearer")
            #expect(Self.page(service, path: "/metrics", authorization: Self.basic(RouterTestService.adminKey)).status == 401)
            #expect(Self.page(service, path: "/admin/experiments/sampler_hero", authorization: Self.basic(RouterTestService.adminKey)).status == 200,
                    "an experiment's page is one of the operator page's routes")
        }
    }

    @Test("a service without API keys, on loopback only, serves the page as it serves every admin route")
    func noKeysNoSignIn() throws {
        let service = try RouterTestService()
        defer { service.cleanUp() }
        let open = HTTPRouter(service: service.router.service, access: .unauthenticated)
        #expect(open.respond(to: HTTPRequest(method: "GET", path: "/admin", clientAddress: Self.loopback)).status == 200)
        #expect(open.respond(to: HTTPRequest(method: "GET", path: "/v1/admin/policy", clientAddress: Self.loopback)).status == 200)
    }

    @Test("Basic credentials: the password after the first colon, the scheme in any case; nothing else is a password")
    func basicCredentials() {
        #expect(BrowserSignIn.password(fromAuthorization: Self.basic("k:e:y")) == "k:e:y")
        #expect(BrowserSignIn.password(fromAuthorization: "basic " + Data("a:secret".utf8).base64EncodedString()) == "secret")
        #expect(BrowserSignIn.password(fromAuthorization: Self.basic("")) == nil)
        #expect(BrowserSignIn.password(fromAuthorization: "Basic " + Data("no colon".utf8).base64EncodedString()) == nil)
        #expect(BrowserSignIn.password(fromAuthorization: "Bearer " + Data("a:b".utf8).base64EncodedString()) == nil)
        #expect(BrowserSignIn.password(fromAuthorization: "Basic") == nil)
    }
}
