import Foundation
import LuaBridge
import StoreCore
import StorePolicy

/// Where every decision the service makes is told: counted in the metrics by hook and source,
/// counted for the operator page with its failures (``RecentDecisions``), and written to the
/// decision log as one entry. The decision route, the retention responder
/// and the consumption responder all record through one, so a decision is counted and logged
/// the same way whichever asked for it.
public struct DecisionRecorder: Sendable {
    /// Where each decision is counted, when anywhere.
    public let metrics: ServiceMetrics?
    /// Where each decision is logged, when anywhere.
    public let log: DecisionLog?
    /// Where each decision is counted for the operator page, when anywhere.
    public let recent: RecentDecisions?

    /// A recorder counting in `metrics` and `recent` and logging to `log`; with none it records nothing.
    public init(metrics: ServiceMetrics? = nil, log: DecisionLog? = nil, recent: RecentDecisions? = nil) {
        self.metrics = metrics
        self.log = log
        self.recent = recent
    }

    /// Records one decision of `hook`, made for `requestID` (about `customer`, when the ledger's
    /// state was used) on `inputs`, whose `result` came from `source` (counted as `policy` when
    /// nil) under `policyVersion`, begun at `started`; a `fallback` says why in `fallbackReason`.
    public func record(hook: String, requestID: String, customer: String?, inputs: [LuaValue], result: HookResult, source: String?,
                       policyVersion: String, started: ContinuousClock.Instant, fallbackReason: String? = nil) {
        metrics?.recordDecision(hook: hook, source: source ?? "policy")
        recent?.record(hook: hook, source: source ?? "policy", reason: fallbackReason, policyVersion: policyVersion, requestID: requestID)
        guard let log else { return }
        let elapsed = ContinuousClock.now - started
        log.record(DecisionLog.Entry(
            time: DecisionLog.timestamp(Date()), requestID: requestID, customer: customer, hook: hook, inputs: inputs, result: result,
            source: source, policyVersion: policyVersion, durationMilliseconds: elapsed.seconds * 1000))
    }

    /// Records a decision of `hook` that no hook made: the ledger could not be read, so the
    /// hook's `fallback` answered without being asked, for `requestID`. It is counted; nothing
    /// was decided to log.
    public func recordFallbackWithoutDecision(hook: String, requestID: String? = nil) {
        metrics?.recordDecision(hook: hook, source: "fallback")
        recent?.record(hook: hook, source: "fallback", reason: "\(hook): the ledger could not be read; no hook ran", requestID: requestID)
    }
}
