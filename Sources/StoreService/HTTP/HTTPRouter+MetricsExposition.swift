import Foundation
import StoreCore

extension HTTPRouter {
    /// What `GET /metrics` answers: the metrics counted, with the gauges read from the service
    /// now (the ledger's unfinished transactions and kept notifications, each left out when the
    /// ledger does not answer; the policy serving and whether it is the one it should be; the
    /// roots signed data must chain to; the outbox's backlog when the service records outgoing events).
    func metricsExposition() -> String {
        let backlog = service.ledger.outgoingEvents == nil ? nil
            : try? service.ledger.outgoingEventBacklog(at: Date().millisecondsSince1970)
        return metrics.exposition(unfinishedTransactions: try? service.ledger.unfinishedTransactions().count,
                           pendingNotifications: try? service.ledger.pendingNotifications().count,
                           policyVersion: service.engine.version, policyProblem: service.policyProblem.withLock { $0 } != nil,
                           trustedRoots: service.verifier.rootCertificates, outgoingEvents: backlog)
    }
}
