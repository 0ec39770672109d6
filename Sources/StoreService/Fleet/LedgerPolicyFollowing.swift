import Foundation
import StoreCore
import StorePolicy
import Synchronization

/// Keeps a service on the newest policy released to its fleet (`storerules policy publish`
/// writes releases into the PostgreSQL ledger), switching within moments of each release.
///
/// A release is swapped in, script and catalog together, when it compiles and validates here;
/// otherwise the previous version keeps serving, the failure counts once in the metrics and
/// shows in `/readyz` (``Readiness/policyProblem``) until a later release loads.
public final class LedgerPolicyFollowing: Sendable {
    private let subscription: any PolicyReleaseSubscription

    /// Follows `feed`'s releases after `current` for `service`; `log` hears each switch and failure.
    public init(service: Service, feed: any PolicyReleaseFeed, current: PolicyRelease, metrics: ServiceMetrics,
                log: @escaping @Sendable (String) -> Void) {
        let lastFailure = Mutex<Int64?>(nil)
        subscription = feed.follow(after: current.number, onRelease: { release in
            Self.serve(release, in: service, metrics: metrics, lastFailure: lastFailure, log: log)
        }, onFailure: { problem in
            log("following policy releases: \(problem); trying again")
        })
    }

    /// Stops following.
    public func stop() {
        subscription.stop()
    }

    /// The catalog a release carries, read; one that fails to read is a release that fails.
    private static func catalog(of release: PolicyRelease) throws(PolicyError) -> Catalog? {
        guard let name = release.catalogName, let text = release.catalog else { return nil }
        do {
            return try Catalog(data: Data(text.utf8), fileName: name)
        } catch {
            throw PolicyError(kind: .unreadable, script: name, reason: "\(error)")
        }
    }

    /// Where `release` is said to come from in the service's ``PolicyHistory``.
    private static func origin(of release: PolicyRelease) -> String {
        "release \(release.number) (\(release.action.rawValue), \(release.version))"
    }

    private static func serve(_ release: PolicyRelease, in service: Service, metrics: ServiceMetrics,
                              lastFailure: borrowing Mutex<Int64?>, log: @Sendable (String) -> Void) {
        guard release.version != service.engine.version else {
            service.reportPolicyProblem(nil)
            return
        }
        do throws(PolicyError) {
            let catalog = try Self.catalog(of: release)
            try service.servePolicy(PolicySource(text: release.script), catalog: catalog)
            service.reportPolicyProblem(nil)
            service.policyHistory.record(PolicyHistory.Event(time: Date(), loaded: true, version: release.version, origin: origin(of: release)))
            metrics.recordReload(result: "success")
            log("policy release \(release.number) serving, version \(release.version)")
        } catch {
            let problem = "release \(release.number) (version \(release.version)) failed to load: \(error.description); "
                + "version \(service.engine.version) keeps serving"
            service.reportPolicyProblem(problem)
            // A release seen again (the follower's periodic look) is one failure, counted once.
            let isNew = lastFailure.withLock { last in
                defer { last = release.number }
                return last != release.number
            }
            if isNew {
                service.policyHistory.record(PolicyHistory.Event(time: Date(), loaded: false, version: service.engine.version,
                                                                 origin: origin(of: release), problem: error.description))
                metrics.recordReload(result: "failure")
                log(problem)
            }
        }
    }
}
