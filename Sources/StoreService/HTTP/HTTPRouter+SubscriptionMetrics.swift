import Foundation
import StoreCore
import StorePolicy

extension HTTPRouter {
    /// `GET /v1/admin/metrics/subscriptions?from=&to=&interval=&as_of=`: the subscription
    /// figures per interval of the service's environment, each product's period from the
    /// serving catalog, as `storerules ledger metrics --json` prints them.
    func subscriptionMetrics(_ request: HTTPRequest) throws(ServiceError) -> SubscriptionMetrics {
        var asOf = service.clock()
        if let text = request.query["as_of"] {
            guard let date = ExperimentDate.parseReportTime(text) else {
                throw .badRequest("as_of is a UTC date, an ISO 8601 time or milliseconds since 1970, not '\(text)'")
            }
            asOf = date
        }
        let metricsRequest = SubscriptionMetricsRequest(from: request.query["from"], to: request.query["to"],
                                                        interval: request.query["interval"],
                                                        environment: service.verifier.environment.rawValue)
        let query: SubscriptionMetricsQuery
        do {
            query = try metricsRequest.query(asOf: asOf, catalog: service.catalog)
        } catch {
            throw .badRequest(error.description)
        }
        do {
            return try service.ledger.subscriptionMetrics(query)
        } catch {
            throw .ledger(error)
        }
    }
}
