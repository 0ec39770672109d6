import Foundation
import StoreCore
import StorePolicy

extension HTTPRouter {
    /// `GET /v1/admin/experiments[/{name}]`: the report of every experiment, or of one, from
    /// the ledger and the serving policy's declarations, as of `as_of` (ISO 8601 or epoch
    /// milliseconds; now by default), with `horizon` days reported besides 7, 14 and 30.
    func experimentReport(_ request: HTTPRequest, experiment: String?) throws(ServiceError) -> ExperimentReport {
        var options = ExperimentReportOptions(experiment: experiment)
        if let text = request.query["horizon"] {
            guard let days = Int(text), (1...ExperimentAggregatesQuery.maximumHorizonDays).contains(days) else {
                throw .badRequest("horizon is a whole number of days from 1 to \(ExperimentAggregatesQuery.maximumHorizonDays), not '\(text)'")
            }
            options.horizonDays = days
        }
        let asOf = try reportTime(of: request)
        let reporter = ExperimentReporter(ledger: service.ledger, declarations: service.engine.experiments)
        do {
            return try reporter.report(asOf: asOf, options: options)
        } catch let error as ExperimentReportError {
            throw .experimentNotFound(error)
        } catch {
            throw .ledger(error)
        }
    }
}

extension HTTPRouter {
    /// The time a report route is asked for as of: its `as_of` parameter (a UTC date, an ISO
    /// 8601 time or milliseconds since 1970), or the service's clock now.
    ///
    /// - Throws: ``ServiceError/badRequest(_:)`` for any other `as_of`.
    func reportTime(of request: HTTPRequest) throws(ServiceError) -> Date {
        guard let text = request.query["as_of"] else { return service.clock() }
        guard let date = ExperimentDate.parseReportTime(text) else {
            throw .badRequest("as_of is a UTC date, an ISO 8601 time or milliseconds since 1970, not '\(text)'")
        }
        return date
    }
}
