import Foundation
import StoreCore

extension HTTPRouter {
    /// The operator page's routes, which a browser signs in to with the `admin` key
    /// (``BrowserSignIn``): the page, and each experiment's report as a page.
    static let operatorPageRoutes: [HTTPRoute] = [
        HTTPRoute("GET", "/admin", role: .admin, acceptsBrowserSignIn: true) { router, _, context throws(ServiceError) in
            let log = { (line: String) in router.log("request \(context.requestID) (GET /admin): \(line)") }
            let facts = OperatorPageFacts.read(from: router, log: log)
            return .page(OperatorPage.render(facts, subscriptionMetrics: router.subscriptionMetricsSection(log: log)))
        },
        HTTPRoute("GET", "/admin/experiments/{name}", role: .admin, query: ["horizon", "as_of"], acceptsBrowserSignIn: true) {
            router, request, context throws(ServiceError) in
            let report = try router.experimentReport(request, experiment: context.parameters[0])
            return .page(ExperimentReportHTML.render(report, title: "Experiment \(context.parameters[0])"))
        },
    ]
}

extension HTTPRouter {
    /// The subscription metrics' cards and charts of the last 30 days by day, for the operator
    /// page; when the ledger cannot count them, a line saying so (the reason logged), so the
    /// rest of the page still shows.
    func subscriptionMetricsSection(log: (String) -> Void) -> String {
        do {
            return SubscriptionMetricsHTML.section(try subscriptionMetrics(SubscriptionMetricsRequest(), asOf: service.clock()))
        } catch {
            log("the subscription metrics could not be counted: \(error)")
            return "<p class=\"note\">The subscription metrics could not be counted; the service's log says why.</p>"
        }
    }
}

extension HTTPResponse {
    /// `html` as a page of the operator's: `200`, under ``OperatorPage/contentSecurityPolicy``,
    /// never cached, never framed, sent with no referrer.
    static func page(_ html: String) -> HTTPResponse {
        var response = HTTPResponse.text(200, html, contentType: "text/html; charset=utf-8")
        response.headers["Content-Security-Policy"] = OperatorPage.contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
