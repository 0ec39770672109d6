import Foundation
import StoreCore
import StoreService
import Testing

/// `GET /v1/admin/metrics/subscriptions` through the router, and the page and text the same
/// figures are drawn as.
@Suite struct SubscriptionMetricsRouteTests {
    @Test func theAdminReadsTheFiguresPerIntervalAndABadRequestIsRefusedWithItsReason() throws {
        try RouterTestService.test { service in
            let admin = RouterTestService.adminKey
            let answer = service.respond("GET", "/v1/admin/metrics/subscriptions",
                                         query: ["from": "2026-11-01", "to": "2026-11-30", "interval": "week", "as_of": "2026-12-01"], key: admin)
            #expect(answer.status == 200, "\(answer.bodyText)")
            let intervals = answer.object["intervals"] as? [[String: Any]] ?? []
            #expect(intervals.count == 6, "the weeks from Monday 26 October to the one starting Monday 30 November")
            #expect(intervals.first?["start"] as? String == "2026-10-26T00:00:00Z")
            #expect(intervals.allSatisfy { $0["active_subscriptions"] as? Int == 0 && $0["churn_rate"] is NSNull })
            #expect(answer.object["interval"] as? String == "week" && answer.object["as_of"] as? String == "2026-12-01T00:00:00Z")
            #expect(answer.object["environment"] as? String == service.router.service.verifier.environment.rawValue)

            let byDefault = service.respond("GET", "/v1/admin/metrics/subscriptions", query: ["as_of": "2026-12-01"], key: admin)
            #expect((byDefault.object["intervals"] as? [Any])?.count == 30, "thirty days by default")
            #expect(byDefault.object["by"] == nil && byDefault.object["groups"] == nil, "no groups unless asked")
            #expect(byDefault.object["customer"] == nil, "every customer unless one is asked")
            let share = service.respond("GET", "/v1/admin/metrics/subscriptions", query: ["as_of": "2026-12-01", "customer": "ana"], key: admin)
            #expect(share.status == 200 && share.object["customer"] as? String == "ana", "\(share.bodyText)")
            let byProduct = service.respond("GET", "/v1/admin/metrics/subscriptions", query: ["as_of": "2026-12-01", "by": "product"], key: admin)
            #expect(byProduct.status == 200 && byProduct.object["by"] as? String == "product" && byProduct.object["groups"] is [Any],
                    "\(byProduct.bodyText)")

            for (query, reason) in [(["interval": "hour"], "interval is day, week or month"),
                                    (["interval": "WEEK"], "not 'WEEK'; did you mean 'week'?"), (["from": "yesterday"], "from is a date"),
                                    (["by": "prodcut"], "by is product or storefront, not 'prodcut'; did you mean 'product'?"),
                                    (["customer": ""], "customer: the customer id is empty"),
                                    (["from": "2026-12-01", "to": "2026-11-01"], "start is after its end"),
                                    (["from": "1990-01-01", "to": "2026-01-01"], "more than 3660 intervals"),
                                    (["as_of": "999999999999999999"], "dates and time are from 1900 to 9999"),
                                    (["from": "0001-01-01", "to": "0001-01-02"], "dates and time are from 1900 to 9999")] {
                let refused = service.respond("GET", "/v1/admin/metrics/subscriptions", query: query, key: admin)
                #expect(refused.status == 400 && refused.errorMessage?.contains(reason) == true, "\(query): \(refused.bodyText)")
            }
            #expect(service.respond("GET", "/v1/admin/metrics/subscriptions", query: ["currency": "USD"], key: admin).status == 400)
            #expect(service.respond("GET", "/v1/admin/metrics/subscriptions").status == 403)
        }
    }

    static func metrics() -> SubscriptionMetrics {
        var first = SubscriptionMetrics.Interval(start: Date(timeIntervalSince1970: 1_796_083_200),
                                                 end: Date(timeIntervalSince1970: 1_796_169_600))
        first.activeSubscriptions = 3
        first.trialsEnded = 2
        first.trialsConverted = 1
        var money = SubscriptionMetrics.Money()
        money.mrr = 29.97
        money.mrrNew = 29.97
        money.subscriptionRevenue = 29.97
        first.money = ["USD": money]
        var second = SubscriptionMetrics.Interval(start: first.end, end: first.end.addingTimeInterval(86_400))
        second.activeSubscriptions = 2
        second.activeSubscriptionsBefore = 3
        second.churnedSubscriptions = 1
        money.mrr = 19.98
        money.mrrNew = 0
        money.mrrChurn = 9.99
        second.money = ["USD": money]
        return SubscriptionMetrics(interval: .day, asOf: second.end, environment: "Production", currency: nil,
                                   currenciesLeftOut: ["<XTS>"], periodSource: "catalog", intervals: [first, second])
    }

    @Test func aGroupedReportListsEachGroupInTheTextTheJSONAndThePage() throws {
        var metrics = Self.metrics()
        metrics.grouping = .storefront
        metrics.groups = [.init(name: "", intervals: metrics.intervals), .init(name: "<FRA>", intervals: metrics.intervals)]
        let text = SubscriptionMetricsText.render(metrics)
        #expect(text.contains("Storefront (none given)") && text.contains("Storefront <FRA>"), "\(text)")
        let page = SubscriptionMetricsHTML.page(metrics)
        #expect(page.contains("<h2>By storefront</h2>") && page.contains("&lt;FRA&gt;") && !page.contains("<FRA>"))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(metrics)) as? [String: Any]
        let groups = json?["groups"] as? [[String: Any]]
        #expect(json?["by"] as? String == "storefront" && groups?.map { $0["name"] as? String } == ["", "<FRA>"])
        #expect((groups?.last?["intervals"] as? [Any])?.count == 2)
    }

    @Test func thePageDrawsCardsAndChartsWithNothingFromOutsideAndEveryTextEscaped() {
        let page = SubscriptionMetricsHTML.page(Self.metrics(), title: "Birds & <co>")
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<title>Birds &amp; &lt;co&gt;</title>"))
        #expect(!page.contains("<script") && !page.contains("http://") && !page.contains("https://"))
        #expect(!page.contains("src=") && !page.contains("@import") && !page.contains("url("))
        #expect(page.components(separatedBy: "<svg viewBox").count - 1 == 5, "subscriptions, MRR, movement, revenue and rates")
        #expect(page.contains("19.98") && page.contains("50 %"), "MRR at the end, one trial of two converted")
        #expect(page.contains("&lt;XTS&gt;") && !page.contains("<XTS>"))
    }

    @Test func theTextHasALinePerIntervalAndEachCurrencysMoney() {
        let text = SubscriptionMetricsText.render(Self.metrics())
        let lines = text.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("2026-12-02") && $0.contains("33.3%") }, "\(text)")
        #expect(text.contains("Money in USD") && text.contains("19.98") && text.contains("Left out for want of a rate: <XTS>"))
    }
}
