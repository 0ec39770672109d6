import Foundation
import StoreCore

extension HTTPRouter {
    /// `GET /v1/admin/metrics/subscriptions?from=&to=&interval=&by=&customer=&as_of=`: the subscription
    /// figures per interval of the service's environment, each product's period from the
    /// serving catalog, as `storerules ledger metrics --json` prints them.
    func subscriptionMetrics(_ request: HTTPRequest) throws(ServiceError) -> SubscriptionMetrics {
        try subscriptionMetrics(SubscriptionMetricsRequest(from: request.query["from"], to: request.query["to"],
                                                           interval: request.query["interval"], by: request.query["by"],
                                                           customer: request.query["customer"]),
                                asOf: try reportTime(of: request))
    }

    /// The figures `metricsRequest` asks for as of `asOf`, of the service's environment, each
    /// product's period from the serving catalog.
    ///
    /// - Throws: ``ServiceError/badRequest(_:)`` for a bad request; a ledger failure.
    func subscriptionMetrics(_ metricsRequest: SubscriptionMetricsRequest, asOf: Date) throws(ServiceError) -> SubscriptionMetrics {
        var metricsRequest = metricsRequest
        metricsRequest.environment = service.verifier.environment.rawValue
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
