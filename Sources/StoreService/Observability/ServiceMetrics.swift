import Foundation
import StoreCore
import Synchronization

/// What a service counts, for `GET /metrics`: requests by route, method and status and their
/// durations; decisions by hook and source; verifications by kind and Apple's status; ingests
/// by kind and outcome; policy reloads by result; and the TLS certificate it serves. Safe to
/// record from any thread.
public final class ServiceMetrics: Sendable {
    /// The upper bounds of the request-duration histogram's buckets, in seconds.
    public static let durationBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct Histogram {
        var bucketCounts = [UInt64](repeating: 0, count: ServiceMetrics.durationBuckets.count)
        var count: UInt64 = 0
        var sum: Double = 0
    }

    private struct Counts {
        var requests: [[String]: UInt64] = [:]
        var durations: [String: Histogram] = [:]
        var decisions: [[String]: UInt64] = [:]
        var verifications: [[String]: UInt64] = [:]
        var ingests: [[String]: UInt64] = [:]
        /// Both results from the start, so that a rule's `increase` sees the first failure.
        var reloads: [[String]: UInt64] = [["success"]: 0, ["failure"]: 0]
        var reconciliations: [[String]: UInt64] = [:]
        var connectionRefusals: [[String]: UInt64] = [:]
        var reconciliationChanges: UInt64 = 0
        var reconciliationCustomerFailures: UInt64 = 0
        var lastReconciliationSuccess: Double?
        var tlsCertificate: X509Certificate?
        var eventAttempts: [[String]: UInt64] = [:]
        var eventAttemptSeconds = 0.0
        var eventDeliveryLatency = Histogram()
    }

    /// How a background reconcile ended.
    public enum ReconciliationResult: String, Sendable {
        /// Everything in the window was ingested; the checkpoint moved.
        case success
        /// The notifications were read, and some customers' histories failed.
        case partial
        /// The reconcile failed before its end (the API or the ledger could not be read).
        case failure
        /// Another instance of the fleet was reconciling.
        case skipped
    }

    private let counts = Mutex(Counts())

    /// Creates empty counters.
    public init() {}

    /// Counts one attempt at an outgoing event by how it ended (`delivered`, `retry`, `failed`,
    /// `skipped`), the attempt's duration, and for a delivered event the time since it was written.
    public func recordOutgoingEventAttempt(_ attempt: OutgoingEventAttempt, seconds: Double, sinceCreated: Double) {
        let outcome = switch attempt {
        case .delivered: "delivered"
        case .retry: "retry"
        case .failed: "failed"
        case .skipped: "skipped"
        }
        counts.withLock { counts in
            counts.eventAttempts[[outcome], default: 0] += 1
            counts.eventAttemptSeconds += seconds
            guard case .delivered = attempt else { return }
            for (bucket, bound) in Self.eventLatencyBuckets.enumerated() where sinceCreated <= bound {
                counts.eventDeliveryLatency.bucketCounts[bucket] += 1
            }
            counts.eventDeliveryLatency.count += 1
            counts.eventDeliveryLatency.sum += sinceCreated
        }
    }

    /// The upper bounds of the event-latency histogram's buckets, in seconds.
    public static let eventLatencyBuckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600, 86400]

    /// Counts one request answered with `status` after `seconds`.
    public func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        counts.withLock { counts in
            counts.requests[[route, method, String(status)], default: 0] += 1
            var histogram = counts.durations[route] ?? Histogram()
            if let bucket = Self.durationBuckets.firstIndex(where: { seconds <= $0 }) {
                histogram.bucketCounts[bucket] += 1
            }
            histogram.count += 1
            histogram.sum += seconds
            counts.durations[route] = histogram
        }
    }

    /// Counts one decision of `hook` whose value came from `source` (`policy`, `default`, `fallback`).
    public func recordDecision(hook: String, source: String) {
        counts.withLock { $0.decisions[[hook, source], default: 0] += 1 }
    }

    /// Counts one verification of signed data of `kind`, with Apple's status (`OK` when it passed).
    public func recordVerification(kind: String, status: String) {
        counts.withLock { $0.verifications[[kind, status], default: 0] += 1 }
    }

    /// Counts one ingest of `kind` (`transaction`, `notification`) with its outcome.
    public func recordIngest(kind: String, outcome: String) {
        counts.withLock { $0.ingests[[kind, outcome], default: 0] += 1 }
    }

    /// Counts one background reconcile with its result, and the changes and customer failures of
    /// its `summary` when it ran to its end; a success is the last success from now on.
    public func recordReconciliation(_ result: ReconciliationResult, summary: ReconciliationSummary? = nil) {
        let now = Date().timeIntervalSince1970
        counts.withLock { counts in
            counts.reconciliations[[result.rawValue], default: 0] += 1
            if let summary {
                counts.reconciliationChanges += UInt64(max(0, summary.changes))
                counts.reconciliationCustomerFailures += UInt64(summary.failures.count)
            }
            if result == .success { counts.lastReconciliationSuccess = now }
        }
    }

    /// Counts one connection refused at once for `cap` (`server` or `address`).
    public func recordConnectionRefusal(cap: String) {
        counts.withLock { $0.connectionRefusals[[cap], default: 0] += 1 }
    }

    /// Counts one reload with its result (`success`, `failure`).
    public func recordReload(result: String) {
        counts.withLock { $0.reloads[[result], default: 0] += 1 }
    }

    /// Records the certificate the service serves TLS with, whose end of validity the
    /// exposition reports.
    public func recordTLSCertificate(_ certificate: X509Certificate) {
        counts.withLock { $0.tlsCertificate = certificate }
    }

    /// The exposition, with the gauges read from the service now: the unfinished transactions
    /// and the notifications kept for customers not known yet (each nil when the ledger could not
    /// say), the policy version serving and whether a reload or release failed to load (so the
    /// previous version keeps serving), and the roots signed data must chain to.
    public func exposition(unfinishedTransactions: Int?, pendingNotifications: Int? = nil, policyVersion: String, policyProblem: Bool = false,
                           trustedRoots: [X509Certificate] = [], outgoingEvents: OutgoingEventBacklog? = nil, at now: Date = Date()) -> String {
        let counts = counts.withLock { $0 }
        var text = PrometheusText()
        text.counter("storerules_http_requests_total", help: "HTTP requests answered, by route, method and status.",
                     labels: ["route", "method", "status"], counts.requests)
        text.family("storerules_http_request_duration_seconds", type: "histogram", help: "Time to answer an HTTP request, by route.")
        for (route, histogram) in counts.durations.sorted(by: { $0.key < $1.key }) {
            var cumulative: UInt64 = 0
            for (bound, count) in zip(Self.durationBuckets, histogram.bucketCounts) {
                cumulative += count
                text.sample("storerules_http_request_duration_seconds_bucket", [("route", route), ("le", PrometheusText.format(bound))],
                            Double(cumulative))
            }
            text.sample("storerules_http_request_duration_seconds_bucket", [("route", route), ("le", "+Inf")], Double(histogram.count))
            text.sample("storerules_http_request_duration_seconds_sum", [("route", route)], histogram.sum)
            text.sample("storerules_http_request_duration_seconds_count", [("route", route)], Double(histogram.count))
        }
        text.counter("storerules_decisions_total", help: "Decisions made, by hook and where the value came from.",
                     labels: ["hook", "source"], counts.decisions)
        text.counter("storerules_verifications_total", help: "Signed data verified, by kind and Apple's verification status.",
                     labels: ["kind", "status"], counts.verifications)
        text.counter("storerules_ingests_total", help: "Signed data ingested into the ledger, by kind and outcome.",
                     labels: ["kind", "outcome"], counts.ingests)
        text.counter("storerules_policy_reloads_total", help: "Policy reloads, by result.", labels: ["result"], counts.reloads)
        text.counter("storerules_connections_refused_total",
                     help: "Connections answered 503 at once and closed, by the cap they met (server, address).",
                     labels: ["cap"], counts.connectionRefusals)
        text.counter("storerules_reconciliations_total",
                     help: "Background reconciles with the App Store Server API, by result (success, partial, failure, skipped).",
                     labels: ["result"], counts.reconciliations)
        if !counts.reconciliations.isEmpty {
            text.family("storerules_reconciliation_changes_total", type: "counter",
                        help: "Changes background reconciles made to the ledger (what the service had missed).")
            text.sample("storerules_reconciliation_changes_total", [], Double(counts.reconciliationChanges))
            text.family("storerules_reconciliation_customer_failures_total", type: "counter",
                        help: "Customers whose history a background reconcile could not read.")
            text.sample("storerules_reconciliation_customer_failures_total", [], Double(counts.reconciliationCustomerFailures))
        }
        if !counts.reconciliations.isEmpty {
            text.family("storerules_reconciliation_last_success_timestamp_seconds", type: "gauge",
                        help: "When a background reconcile last ran to its end without a failure, in seconds since 1970; 0 before the first.")
            text.sample("storerules_reconciliation_last_success_timestamp_seconds", [], counts.lastReconciliationSuccess ?? 0)
        }
        text.family("storerules_policy_info", type: "gauge", help: "The policy version serving (always 1).")
        text.sample("storerules_policy_info", [("version", policyVersion)], 1)
        text.family("storerules_policy_problem", type: "gauge",
                    help: "1 while a reload or release failed to load and the previous version keeps serving, else 0.")
        text.sample("storerules_policy_problem", [], policyProblem ? 1 : 0)
        if let unfinishedTransactions {
            text.family("storerules_unfinished_transactions", type: "gauge", help: "Transactions stored but not granted yet.")
            text.sample("storerules_unfinished_transactions", [], Double(unfinishedTransactions))
        }
        if let pendingNotifications {
            text.family("storerules_pending_notifications", type: "gauge", help: "Notifications kept for customers not known yet.")
            text.sample("storerules_pending_notifications", [], Double(pendingNotifications))
        }
        if let outgoingEvents {
            outgoingEventFamilies(outgoingEvents, counts: counts, at: now, into: &text)
        }
        let served: [(role: String, certificate: X509Certificate)] = counts.tlsCertificate.map { [("tls", $0)] } ?? []
        let certificates = served + trustedRoots.map { (role: "root", certificate: $0) }
        if !certificates.isEmpty {
            text.family("storerules_certificate_expiry_timestamp_seconds", type: "gauge",
                        help: "When a certificate the service relies on stops being valid (its notAfter), in seconds since 1970: "
                            + "the TLS certificate it serves (tls) and each root signed data must chain to (root).")
            for (role, certificate) in certificates {
                text.sample("storerules_certificate_expiry_timestamp_seconds", [("certificate", role), ("subject", certificate.subject)],
                            certificate.notValidAfter.timeIntervalSince1970)
            }
        }
        return text.text
    }

    /// The outbox's gauges, its attempts by outcome and the time from an event's write to its delivery.
    private func outgoingEventFamilies(_ backlog: OutgoingEventBacklog, counts: Counts, at now: Date, into text: inout PrometheusText) {
        text.family("storerules_outgoing_events_pending", type: "gauge", help: "Outgoing events waiting for delivery.")
        text.sample("storerules_outgoing_events_pending", [], Double(backlog.pending))
        text.family("storerules_outgoing_events_late", type: "gauge", help: "Outgoing events written over a minute ago and not delivered yet.")
        text.sample("storerules_outgoing_events_late", [], Double(backlog.late))
        text.family("storerules_outgoing_events_failed", type: "gauge", help: "Outgoing events given up, for an operator to retry.")
        text.sample("storerules_outgoing_events_failed", [], Double(backlog.failed))
        text.family("storerules_outgoing_event_oldest_pending_age_seconds", type: "gauge",
                    help: "How long ago the oldest pending outgoing event was written; 0 when none waits.")
        let age = backlog.oldestPendingDate.map { max(0, now.timeIntervalSince1970 - Double($0) / 1000) } ?? 0
        text.sample("storerules_outgoing_event_oldest_pending_age_seconds", [], age)
        var attempts = counts.eventAttempts
        for outcome in ["delivered", "retry", "failed", "skipped"] { attempts[[outcome], default: 0] += 0 }
        text.counter("storerules_outgoing_event_attempts_total", help: "Attempts at delivering outgoing events, by outcome.",
                     labels: ["outcome"], attempts)
        text.family("storerules_outgoing_event_delivery_latency_seconds", type: "histogram",
                    help: "Time from an outgoing event's write to its delivery.")
        let latency = counts.eventDeliveryLatency
        for (bound, count) in zip(Self.eventLatencyBuckets, latency.bucketCounts) {
            text.sample("storerules_outgoing_event_delivery_latency_seconds_bucket", [("le", PrometheusText.format(bound))], Double(count))
        }
        text.sample("storerules_outgoing_event_delivery_latency_seconds_bucket", [("le", "+Inf")], Double(latency.count))
        text.sample("storerules_outgoing_event_delivery_latency_seconds_sum", [], latency.sum)
        text.sample("storerules_outgoing_event_delivery_latency_seconds_count", [], Double(latency.count))
    }
}
